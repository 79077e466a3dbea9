import { FlashMessage } from '../../components/ui/FlashMessage.tsx';
import type { AccountMessages } from './messages.ts';

/** What became of the last action of a section. */
export type Notice = { type: 'success' | 'error'; message: string; detail?: string } | null;

/**
 * The live region of a section: always in the page (so screen readers announce what appears in
 * it), holding the success or failure of the section's last action; a failure keeps its technical
 * detail in a details element.
 */
export function NoticeRegion({ notice, m, onHide }: { notice: Notice; m: AccountMessages; onHide: () => void }) {
  return (
    <div className="account__live" aria-live="polite">
      {notice && (
        <>
          <FlashMessage type={notice.type} message={notice.message} typeLabel={m[notice.type === 'success' ? 'flash.success' : 'flash.error']} dismissLabel={m['flash.dismiss']} onHide={onHide} />
          {notice.detail && (
            <details className="account__detail">
              <summary>{m['account.error.details']}</summary>
              <pre>{notice.detail}</pre>
            </details>
          )}
        </>
      )}
    </div>
  );
}
