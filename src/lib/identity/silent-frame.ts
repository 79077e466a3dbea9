import { BLANK_CALLBACK_PATH } from './constants.ts';

/**
 * Spec §4 step 2: an authorization request (prompt none) in a hidden frame. The provider sends the
 * frame back to our empty `/blank-callback` page (it runs no script); this watches the frame until
 * it is there (same origin, so its address can be read) and answers its query. A frame that does
 * not get there in time is 'Authorization timed out'.
 */
export function silentFrame(url: string, timeoutMs: number): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const frame = document.createElement('iframe');
    frame.hidden = true;
    frame.tabIndex = -1;
    frame.setAttribute('aria-hidden', 'true');
    frame.title = 'sign-in check';
    let done = false;
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(poll);
      frame.remove();
      settle();
    };
    const check = () => {
      let href: string;
      try {
        // Throws while the frame shows the provider (another origin).
        href = frame.contentWindow?.location.href ?? '';
      } catch {
        return;
      }
      if (!href || href === 'about:blank') return;
      const at = new URL(href);
      if (at.origin === location.origin && at.pathname === BLANK_CALLBACK_PATH) finish(() => resolve(at.searchParams));
    };
    frame.addEventListener('load', check);
    const poll = setInterval(check, 50);
    const timer = setTimeout(() => finish(() => reject(new Error('Authorization timed out'))), timeoutMs);
    frame.src = url;
    document.body.append(frame);
  });
}
