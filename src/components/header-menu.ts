/**
 * Header behaviour: submenus as disclosure buttons (Escape and outside clicks close them), the
 * mobile menu toggle, and <details> menus that close when another opens.
 */
export function initHeader(root: Document = document): void {
  const triggers = [...root.querySelectorAll<HTMLButtonElement>('.main-nav__trigger')];
  const details = [...root.querySelectorAll<HTMLDetailsElement>('.site-header details')];

  const setOpen = (trigger: HTMLButtonElement, open: boolean) => {
    trigger.setAttribute('aria-expanded', String(open));
    const panel = root.getElementById(trigger.getAttribute('aria-controls') ?? '');
    if (panel) panel.hidden = !open;
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

  root.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    const open = triggers.find((t) => t.getAttribute('aria-expanded') === 'true');
    closeAll();
    open?.focus();
  });
  root.addEventListener('click', (e) => {
    if (!(e.target as Element).closest('.main-nav__item, .site-header details')) closeAll();
  });

  const toggle = root.querySelector<HTMLButtonElement>('.site-header__toggle');
  const panel = root.getElementById('site-nav');
  toggle?.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    panel?.classList.toggle('is-open', open);
    const label = toggle.querySelector('.visually-hidden');
    if (label) label.textContent = (open ? toggle.dataset.closeLabel : toggle.dataset.openLabel) ?? '';
  });
}
