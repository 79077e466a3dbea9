/**
 * The editor area's one script: the translation buttons (plain forms that work without it) are
 * sent through the translation API instead, the row shows the answer at once, and a started job
 * is followed (its state polled) until it is translated. Strings come from the server
 * (`data-text` on the list); states are written with textContent only.
 */
import { formatStamp } from './format.ts';

type State = 'MarkedForTranslation' | 'InProgress' | 'Translated';
interface Answer {
  translationState: State;
  targetLanguages: { language: string; translationState: State; exportedAt: string | null; importedAt: string | null }[];
}
interface Text {
  states: Record<State, string>;
  failed: string;
  locale: string;
}

const POLL_MS = 1000;
/** A followed job stops being polled after this many rounds (a stuck job; a reload shows it again). */
const MAX_POLLS = 300;

export function bootEditorArea(): void {
  const list = document.querySelector<HTMLElement>('[data-editor-pages]');
  if (!list) return;
  const text = JSON.parse(list.dataset.text ?? '{}') as Text;
  const live = document.querySelector<HTMLElement>('[data-editor-live]');
  const followed = new Map<string, number>();

  const render = (row: HTMLElement, answer: Answer) => {
    row.dataset.state = answer.translationState;
    const state = row.querySelector<HTMLElement>('[data-translation-state]');
    if (state) {
      state.textContent = text.states[answer.translationState];
      state.className = `editor-state editor-state--${answer.translationState}`;
    }
    for (const target of answer.targetLanguages) {
      const cells = row.querySelectorAll<HTMLElement>(`tr[data-language="${CSS.escape(target.language)}"] td`);
      if (cells.length !== 3) continue;
      cells[0]!.textContent = text.states[target.translationState];
      cells[0]!.dataset.targetState = target.translationState;
      cells[1]!.textContent = formatStamp(target.exportedAt, text.locale);
      cells[2]!.textContent = formatStamp(target.importedAt, text.locale);
    }
    const title = row.querySelector('.editor-page__title')?.textContent ?? '';
    if (live) live.textContent = `${title}: ${text.states[answer.translationState]}`;
  };

  const fail = (row: HTMLElement, show: boolean) => {
    const error = row.querySelector<HTMLElement>('[data-translation-error]');
    if (!error) return;
    error.textContent = show ? text.failed : '';
    error.hidden = !show;
  };

  const call = async (action: 'state' | 'start' | 'reset', pageId: string): Promise<Answer | null> => {
    try {
      const res = await fetch(`/api/translation/${action}/${encodeURIComponent(pageId)}`, {
        method: action === 'state' ? 'GET' : 'POST',
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
      });
      return res.ok ? ((await res.json()) as Answer) : null;
    } catch {
      return null;
    }
  };

  const follow = (row: HTMLElement, pageId: string) => {
    const round = async (n: number) => {
      if (followed.get(pageId) !== n) return; // a reset or a new start took over
      const answer = await call('state', pageId);
      if (followed.get(pageId) !== n) return;
      if (answer) render(row, answer);
      if (answer?.translationState === 'Translated' || n >= MAX_POLLS) {
        followed.delete(pageId);
        return;
      }
      followed.set(pageId, n + 1);
      setTimeout(() => void round(n + 1), POLL_MS);
    };
    followed.set(pageId, 0);
    setTimeout(() => void round(0), POLL_MS);
  };

  list.addEventListener('submit', (event) => {
    const form = (event.target as HTMLElement).closest<HTMLFormElement>('form[data-translation-form]');
    const row = form?.closest<HTMLElement>('[data-page-id]');
    if (!form || !row) return;
    event.preventDefault();
    const intent = (form.elements.namedItem('intent') as HTMLInputElement).value as 'start' | 'reset';
    const pageId = row.dataset.pageId!;
    const button = form.querySelector('button');
    button?.setAttribute('aria-disabled', 'true');
    void call(intent, pageId).then((answer) => {
      button?.removeAttribute('aria-disabled');
      fail(row, !answer);
      if (!answer) return;
      followed.delete(pageId);
      render(row, answer);
      if (intent === 'start') follow(row, pageId);
    });
  });

  // A job already under way when the page loads is followed too, and so is the job of the row the
  // address names while it waits for the vendor: the no-script form (a click before this script
  // ran) redirects to `#page-{id}` after starting it.
  for (const row of list.querySelectorAll<HTMLElement>('[data-page-id][data-state="InProgress"]')) follow(row, row.dataset.pageId!);
  const named = location.hash.startsWith('#page-') ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  if (named && list.contains(named) && named.dataset.pageId && named.dataset.state === 'MarkedForTranslation') follow(named, named.dataset.pageId);
}
