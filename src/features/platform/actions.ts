import { browserLogger } from './log.ts';

const log = browserLogger('actions');

/** Dispatched on `document` when the news feed panel opens (its island may hydrate later and then checks `dialog.open`). */
export const NEWS_FEED_OPEN_EVENT = 'news-feed:open';
/** Dispatched on `document` when the "Talk to an Expert" panel opens (its form script loads then). */
export const CONTACT_PANEL_OPEN_EVENT = 'contact-panel:open';

/**
 * Opens a modal dialog by id and, when it closes, puts the focus back on the element that opened it.
 * False when the page has no such dialog (then a link falls back to its address).
 */
function openDialog(id: string, event: string): boolean {
  const dialog = document.getElementById(id) as HTMLDialogElement | null;
  if (!dialog) return false;
  if (dialog.open) return true;
  const opener = document.activeElement as HTMLElement | null;
  dialog.showModal();
  dialog.addEventListener('close', () => opener?.focus(), { once: true });
  document.dispatchEvent(new CustomEvent(event));
  return true;
}

/**
 * Opens the contact panel. An opener that is a link to a form page with values to fill in (a
 * product page's "Request a quote") leaves its query on the panel (`data-prefill`), where the
 * panel's form script reads it (forms/panel.ts); any other opener clears it.
 */
function openContactPanel(opener?: HTMLElement): boolean {
  const dialog = document.getElementById('contact-panel');
  if (!dialog) return false;
  const href = opener instanceof HTMLAnchorElement && opener.dataset.prefill !== undefined ? opener.href : '';
  if (href) dialog.dataset.prefill = new URL(href).search;
  else delete dialog.dataset.prefill;
  return openDialog('contact-panel', CONTACT_PANEL_OPEN_EVENT);
}

/** Handlers for `action:` links (the news feed, the contact panel); any other action logs a warning. A handler returns false when it cannot act here. */
export const ACTIONS: Record<string, (opener?: HTMLElement) => boolean | void> = {
  'news-feed': () => {
    const dialog = document.getElementById('news-feed') as HTMLDialogElement | null;
    if (!dialog || dialog.open) return;
    dialog.showModal();
    document.dispatchEvent(new CustomEvent(NEWS_FEED_OPEN_EVENT));
  },
  contact: openContactPanel,
};

/** Runs an action; true when it acted (a link's navigation is then not needed). */
export function runAction(name: string, opener?: HTMLElement): boolean {
  const action = ACTIONS[name];
  if (action) return action(opener) !== false;
  log.warn(`Unknown link action "${name}"`);
  return false;
}

export function initActions(root: Document = document): void {
  root.addEventListener('click', (e) => {
    const target = (e.target as Element).closest<HTMLElement>('[data-action]');
    // An action link (`<a href data-action>`, its address the fallback without JavaScript) keeps
    // opening a new tab or window on a modified click.
    const modified = e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0;
    if (target?.dataset.action && !(target instanceof HTMLAnchorElement && modified)) {
      if (runAction(target.dataset.action, target) && target instanceof HTMLAnchorElement) e.preventDefault();
    }
    const close = (e.target as Element).closest<HTMLElement>('[data-close-dialog]');
    close?.closest('dialog')?.close();
  });
}
