/**
 * Header behaviour: submenus as disclosure buttons (Escape and outside clicks close them), the
 * mobile menu, and <details> menus that close when another opens.
 *
 * Below 1024px the navigation is a modal menu that behaves like the site's dialogs: its button
 * becomes "Close menu", a backdrop dims the page and everything outside the menu is inert (focus
 * and clicks cannot reach the page behind it; Tab wraps from the last item to the button), and
 * Escape, a click outside, a link followed or a window widened past the breakpoint close it, the
 * focus back on the button. The button stays outside a <dialog> on purpose: it is the same button
 * that opened the menu, in the same place, and the desktop navigation is the same markup.
 */

/** Where the navigation is the mobile menu: the media queries of Header.astro and chrome-deferred.css. */
export const MOBILE_MENU_QUERY = '(max-width: 1023.98px)';

/** The least room between an open submenu and the window's edge (the page's side padding). */
const SUBMENU_MARGIN = 24;

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The elements beside `keep` and beside each of its ancestors up to <body>: what a modal leaves behind. */
function outside(keep: Element, except: ReadonlySet<Element>): Element[] {
  const out: Element[] = [];
  for (let node: Element = keep; node.parentElement && node !== node.ownerDocument.body; node = node.parentElement) {
    for (const sibling of node.parentElement.children) {
      if (sibling !== node && !except.has(sibling)) out.push(sibling);
    }
  }
  return out;
}

/**
 * A label that wraps keeps the width its item was shrunk to, wider than its lines (CSS cannot
 * shrink-wrap wrapped text), which leaves a gap before the chevron: each wrapped label gets the
 * width of its widest line. Without this (no script yet) the bar still fits, only looser.
 */
function fitWrappedLabels(nav: HTMLElement): void {
  const labels = [...nav.querySelectorAll<HTMLElement>('.main-nav__label')];
  for (const label of labels) label.style.width = '';
  const range = nav.ownerDocument.createRange();
  for (const label of labels) {
    range.selectNodeContents(label);
    const lines = [...range.getClientRects()];
    if (new Set(lines.map((r) => Math.round(r.top))).size < 2) continue;
    label.style.width = `${Math.ceil(Math.max(...lines.map((r) => r.width)))}px`;
  }
}

export function initHeader(root: Document = document): void {
  const nav = root.querySelector<HTMLElement>('.main-nav');
  if (nav) {
    let frame = 0;
    const refit = () => { cancelAnimationFrame(frame); frame = requestAnimationFrame(() => fitWrappedLabels(nav)); };
    // The nav's own width follows the window, never its labels: fitting them cannot loop.
    new ResizeObserver(refit).observe(nav);
    void root.fonts.ready.then(refit);
  }
  const triggers = [...root.querySelectorAll<HTMLButtonElement>('.main-nav__trigger')];
  const details = [...root.querySelectorAll<HTMLDetailsElement>('.site-header details')];

  const setOpen = (trigger: HTMLButtonElement, open: boolean) => {
    trigger.setAttribute('aria-expanded', String(open));
    const panel = root.getElementById(trigger.getAttribute('aria-controls') ?? '');
    if (!panel) return;
    panel.hidden = !open;
    // A wide mega menu (one with a marketing section) near the end of the bar moves towards the
    // start until it is inside the page's margins.
    panel.style.left = '';
    if (open && getComputedStyle(panel).position === 'absolute') {
      const r = panel.getBoundingClientRect();
      const over = r.right - (root.documentElement.clientWidth - SUBMENU_MARGIN);
      if (over > 0) panel.style.left = `${-Math.max(0, Math.min(over, r.left - SUBMENU_MARGIN))}px`;
    }
  };
  const closeAll = (except?: Element) => {
    for (const t of triggers) if (t !== except) setOpen(t, false);
    for (const d of details) if (d !== except) d.open = false;
  };

  for (const trigger of triggers) {
    trigger.addEventListener('click', () => {
      const open = trigger.getAttribute('aria-expanded') !== 'true';
      closeAll(trigger);
      setOpen(trigger, open);
    });
  }
  for (const d of details) d.addEventListener('toggle', () => { if (d.open) closeAll(d); });

  const header = root.querySelector<HTMLElement>('.site-header');
  const menu = root.querySelector<HTMLElement>('.site-header__menu');
  const toggle = menu?.querySelector<HTMLButtonElement>('.site-header__toggle');
  const panel = root.getElementById('site-nav');
  const backdrop = root.querySelector<HTMLElement>('.site-header__backdrop');
  const label = toggle?.querySelector('.visually-hidden');
  /** What the open menu made inert, to give back exactly that (not what was inert before). */
  let inerted: HTMLElement[] = [];
  const menuOpen = () => toggle?.getAttribute('aria-expanded') === 'true';

  const setMenu = (open: boolean, restoreFocus = true) => {
    if (!header || !menu || !toggle || !panel || open === menuOpen()) return;
    toggle.setAttribute('aria-expanded', String(open));
    if (label) label.textContent = (open ? toggle.dataset.closeLabel : toggle.dataset.openLabel) ?? '';
    panel.classList.toggle('is-open', open);
    header.classList.toggle('is-menu-open', open);
    if (backdrop) backdrop.hidden = !open;
    if (open) {
      inerted = outside(menu, new Set(backdrop ? [backdrop] : [])).filter((el): el is HTMLElement => el instanceof HTMLElement && !el.inert);
      for (const el of inerted) el.inert = true;
      // The page behind does not scroll: the menu's own list does, down to the window's bottom
      // (the header is lower while a banner above it is in view).
      panel.style.maxHeight = `${Math.max(160, window.innerHeight - panel.getBoundingClientRect().top)}px`;
    } else {
      for (const el of inerted) el.inert = false;
      inerted = [];
      panel.style.maxHeight = '';
      closeAll();
      if (restoreFocus) toggle.focus();
    }
  };

  toggle?.addEventListener('click', () => setMenu(!menuOpen()));
  // A link or action chosen in the menu closes it first: an action's dialog must not open behind
  // an inert page, and a page restored from the back-forward cache shows no open menu.
  panel?.addEventListener('click', (e) => {
    if (menuOpen() && (e.target as Element).closest('a[href], [data-action]')) setMenu(false);
  });
  const mobile = window.matchMedia(MOBILE_MENU_QUERY);
  mobile.addEventListener('change', () => { if (!mobile.matches) setMenu(false, false); });

  root.addEventListener('keydown', (e) => {
    if (e.key === 'Tab' && menuOpen() && toggle && panel) {
      const items = [toggle, ...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
      const edge = e.shiftKey ? items[0] : items.at(-1);
      if (root.activeElement === edge) {
        e.preventDefault();
        (e.shiftKey ? items.at(-1) : items[0])?.focus();
      }
      return;
    }
    if (e.key !== 'Escape') return;
    const open = triggers.find((t) => t.getAttribute('aria-expanded') === 'true');
    // Escape closes the innermost first: an open submenu, then the menu.
    if (!open && menuOpen()) {
      setMenu(false);
      return;
    }
    closeAll();
    open?.focus();
  });
  root.addEventListener('click', (e) => {
    const target = e.target as Element;
    if (menuOpen() && menu && !menu.contains(target)) {
      setMenu(false);
      return;
    }
    if (!target.closest('.main-nav__item, .site-header details')) closeAll();
  });
}
