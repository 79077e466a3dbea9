import { ERROR_PAGE_WAIT_MS } from '../../lib/identity/constants.ts';

/** Whole seconds left of the wait before the error page (for the countdown). */
export function secondsLeft(startedAt: number, now: number, waitMs = ERROR_PAGE_WAIT_MS): number {
  return Math.max(0, Math.ceil((startedAt + waitMs - now) / 1000));
}

/**
 * A failed sign-in (spec §2): the error page's texts with the error as technical details and a
 * countdown; after 30 s the visitor lands on the error page (`data-error-href`).
 */
export function showSignInFailure(err: unknown, root: ParentNode = document): void {
  const section = root.querySelector<HTMLElement>('[data-sign-in-failure]');
  if (!section) return;
  root.querySelector<HTMLElement>('[data-sign-in-status]')?.setAttribute('hidden', '');
  section.querySelector('[data-sign-in-failure-detail]')!.textContent = err instanceof Error ? err.message : String(err);
  section.hidden = false;
  section.querySelector<HTMLElement>('h1, h2')?.focus();
  const countdown = section.querySelector<HTMLElement>('[data-sign-in-countdown]')!;
  const template = countdown.dataset.template ?? '';
  const started = Date.now();
  const tick = () => {
    const left = secondsLeft(started, Date.now());
    countdown.textContent = template.replace('{seconds}', String(left));
    if (left === 0) {
      clearInterval(timer);
      location.assign(section.dataset.errorHref ?? '/');
    }
  };
  const timer = setInterval(tick, 1000);
  tick();
}
