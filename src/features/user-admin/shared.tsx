import type { ReactNode } from 'react';
import { FlashMessage } from '../../components/ui/FlashMessage.tsx';
import type { UserAdminMessages } from './view.ts';

/** What became of the last action: a message, an optional technical detail and an optional link. */
export type Notice = { type: 'success' | 'error'; message: string; detail?: string; link?: { href: string; label: string } } | null;

/**
 * The result region of a screen: always in the page (a polite live region, so screen readers
 * announce what appears in it) and focusable, so focus can move to the result of an action.
 */
export function NoticeRegion({ notice, m, onHide, regionRef }: { notice: Notice; m: UserAdminMessages; onHide: () => void; regionRef?: React.Ref<HTMLDivElement> }) {
  return (
    <div className="user-admin__live" aria-live="polite" tabIndex={-1} ref={regionRef}>
      {notice && (
        <>
          <FlashMessage type={notice.type} message={notice.message} typeLabel={m[notice.type === 'success' ? 'flash.success' : 'flash.error']} dismissLabel={m['flash.dismiss']} onHide={onHide} />
          {notice.link && <p className="user-admin__notice-link"><a href={notice.link.href}>{notice.link.label}</a></p>}
          {notice.detail && <p className="user-admin__detail">{notice.detail}</p>}
        </>
      )}
    </div>
  );
}

/** A page-level problem (load failed, no permission, invalid user) with its technical detail. */
export function Problem({ title, text, detail, m, children }: { title: string; text?: string; detail?: string; m: UserAdminMessages; children?: ReactNode }) {
  return (
    <div className="user-admin__problem" role="alert">
      <h2>{title}</h2>
      {text && <p>{text}</p>}
      {detail && (
        <details>
          <summary>{m['userAdmin.error.details']}</summary>
          <pre>{detail}</pre>
        </details>
      )}
      {children}
    </div>
  );
}

/** Shown to a signed-in user without a delegated admin role: why, and how to get access. */
export function NoAccess({ m, dashboardHref, detail }: { m: UserAdminMessages; dashboardHref: string; detail?: string }) {
  return (
    <div className="user-admin__no-access" role="note" aria-labelledby="user-admin-no-access">
      <h2 id="user-admin-no-access">{m['userAdmin.noAccess.title']}</h2>
      <p>{m['userAdmin.noAccess.text']}</p>
      <p>{m['userAdmin.noAccess.how']}</p>
      {detail && <p className="user-admin__detail">{detail}</p>}
      <p><a className="btn btn--secondary" href={dashboardHref}>{m['userAdmin.backToDashboard']}</a></p>
    </div>
  );
}
