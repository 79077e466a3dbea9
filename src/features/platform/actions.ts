import { browserLogger } from './log.ts';

const log = browserLogger('actions');

/** Dispatched on `document` when the news feed panel opens (its island may hydrate later and then checks `dialog.open`). */
export const NEWS_FEED_OPEN_EVENT = 'news-feed:open';

/** Handlers for `action:` links. Only the news feed exists; any other action logs a warning. */
export const ACTIONS: Record<string, () => void> = {
  'news-feed': () => {
    const dialog = document.getElementById('news-feed') as HTMLDialogElement | null;
    if (!dialog || dialog.open) return;
    dialog.showModal();
    document.dispatchEvent(new CustomEvent(NEWS_FEED_OPEN_EVENT));
  },
};

export function runAction(name: string): void {
  const action = ACTIONS[name];
  if (action) action();
  else log.warn(`Unknown link action "${name}"`);
}

export function initActions(root: Document = document): void {
  root.addEventListener('click', (e) => {
    const target = (e.target as Element).closest<HTMLElement>('[data-action]');
    if (target?.dataset.action) runAction(target.dataset.action);
    const close = (e.target as Element).closest<HTMLElement>('[data-close-dialog]');
    close?.closest('dialog')?.close();
  });
}
