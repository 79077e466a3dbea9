/** Handlers for `action:` links. Only the news feed exists; any other action logs a warning. */
export const ACTIONS: Record<string, () => void> = {
  'news-feed': () => {
    const dialog = document.getElementById('news-feed') as HTMLDialogElement | null;
    dialog?.showModal();
  },
};

export function runAction(name: string): void {
  const action = ACTIONS[name];
  if (action) action();
  else console.warn(`Unknown link action "${name}"`);
}

export function initActions(root: Document = document): void {
  root.addEventListener('click', (e) => {
    const target = (e.target as Element).closest<HTMLElement>('[data-action]');
    if (target?.dataset.action) runAction(target.dataset.action);
    const close = (e.target as Element).closest<HTMLElement>('[data-close-dialog]');
    close?.closest('dialog')?.close();
  });
}
