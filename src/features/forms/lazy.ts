/**
 * Loads the form script (enhance.ts with valibot) only when a visitor starts on a form: the first
 * focus, pointer press or change inside it. A submit before the script has arrived waits for it and is
 * then sent by the enhanced form, so no post falls through to the plain HTML path by accident.
 * Without JavaScript none of this runs and the form posts to its form page.
 */
export function enhanceOnInteraction(root: ParentNode = document): void {
  for (const form of Array.from(root.querySelectorAll<HTMLFormElement>('form[data-form]:not([data-lazy])'))) {
    form.dataset.lazy = 'true';
    let loading: Promise<void> | null = null;
    const load = () => (loading ??= import('./enhance.ts').then(({ enhanceForms }) => enhanceForms(form.parentElement ?? document)));
    form.addEventListener('focusin', () => void load(), { once: true });
    form.addEventListener('pointerdown', () => void load(), { once: true });
    // A change without focus (the browser's autofill) loads it too: the state field follows the country.
    form.addEventListener('change', () => void load(), { once: true });
    form.addEventListener('submit', (event) => {
      if (form.dataset.enhanced) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      const submitter = event.submitter;
      void load().then(() => form.requestSubmit(submitter instanceof HTMLElement ? submitter : null));
    });
  }
}
