import { CONTACT_PANEL_OPEN_EVENT } from '../platform/actions.ts';
import { browserLogger } from '../platform/log.ts';
import { enhanceOnInteraction } from './lazy.ts';
import { isFormKind } from './definitions.ts';
import { formPrefill } from './prefill.ts';

const log = browserLogger('contact-panel');

/** The id prefix of the form on its form page (FormPageView) and of the panel's copy (ContactPanel), so both can be on one page. */
const PAGE_PREFIX = 'fp-';
const PANEL_PREFIX = 'cp-';
const ID_ATTRIBUTES = ['id', 'for', 'aria-describedby'] as const;

/**
 * Gives a form taken from its form page the panel's ids: `fp-name` → `cp-name` in ids, label
 * targets, error descriptions and the error summary's `#fp-name` links.
 */
export function renameFormIds(root: Element): void {
  const rename = (value: string) => value.split(' ').map((v) => (v.startsWith(PAGE_PREFIX) ? PANEL_PREFIX + v.slice(PAGE_PREFIX.length) : v)).join(' ');
  for (const el of [root, ...Array.from(root.querySelectorAll('*'))]) {
    for (const name of ID_ATTRIBUTES) {
      const value = el.getAttribute(name);
      if (value) el.setAttribute(name, rename(value));
    }
    const href = el.getAttribute('href');
    if (href?.startsWith(`#${PAGE_PREFIX}`)) el.setAttribute('href', `#${rename(href.slice(1))}`);
  }
}

/**
 * Fills in the values the panel's opener named (a product page's "Request a quote" link leaves its
 * query on the panel as `data-prefill`, platform/actions.ts), checked like the form page does.
 */
export function applyPrefill(dialog: HTMLElement): void {
  const form = dialog.querySelector<HTMLFormElement>('form[data-form]');
  const kind = form?.dataset.form ?? '';
  const search = dialog.dataset.prefill;
  if (!form || !search || !isFormKind(kind)) return;
  for (const [name, value] of Object.entries(formPrefill(kind, new URLSearchParams(search)))) {
    const field = form.elements.namedItem(name);
    if (field instanceof HTMLInputElement || field instanceof HTMLSelectElement || field instanceof HTMLTextAreaElement) field.value = value;
  }
}

/**
 * The "Talk to an Expert" panel's form is not in every page: when the panel is first needed
 * (ContactPanel.astro imports this module then) it is taken from the contact form page
 * (`data-src`, the page a form posts to without JavaScript), given the panel's ids and enhanced
 * like any form. When it cannot be loaded while the panel is open, the visitor goes to the contact
 * page instead (`data-fallback`); opened again later, it tries again.
 */
export function initContactPanel(doc: Document = document): void {
  const dialog = doc.getElementById('contact-panel') as HTMLDialogElement | null;
  const slot = dialog?.querySelector<HTMLElement>('[data-contact-form]');
  if (!dialog || !slot?.dataset.src) return;
  let loading: Promise<void> | null = null;
  const load = async () => {
    slot.setAttribute('aria-busy', 'true');
    try {
      const res = await fetch(slot.dataset.src!, { referrerPolicy: 'no-referrer', headers: { accept: 'text/html' } });
      if (!res.ok) throw new Error(`form page answered ${res.status}`);
      // Parsed into an inert template, not a DOMParser document: that one would try to apply the
      // page's inline styles (blocked by this page's policy, an error in the console).
      const template = doc.createElement('template');
      template.innerHTML = await res.text();
      const root = template.content.querySelector('[data-form-root]');
      if (!root) throw new Error('form page without a form');
      renameFormIds(root);
      slot.replaceChildren(doc.importNode(root, true));
      applyPrefill(dialog);
      enhanceOnInteraction(slot);
    } catch (err) {
      log.warn(`the contact form could not be loaded: ${(err as Error).message}`);
      loading = null;
      if (dialog.open) {
        dialog.close();
        if (slot.dataset.fallback) location.assign(slot.dataset.fallback);
      }
    } finally {
      slot.removeAttribute('aria-busy');
    }
  };
  let loaded = false;
  const start = () => void (loading ??= load().then(() => { loaded = slot.querySelector('form') !== null; }));
  // Opened again after a failed load: try again; after a successful one: fill in what this opener names.
  doc.addEventListener(CONTACT_PANEL_OPEN_EVENT, () => {
    if (loaded) applyPrefill(dialog);
    else start();
  });
  start();
}
