/**
 * Product gallery behaviour: thumbnails switch the shown image, the zoom button opens the
 * lightbox (a modal <dialog>) on the same image. Runs once per page for every [data-gallery].
 */
function select(root: Element, slideAttr: string, buttonAttr: string, index: number): void {
  root.querySelectorAll<HTMLElement>(`[${slideAttr}]`).forEach((el) => { el.hidden = el.getAttribute(slideAttr) !== String(index); });
  root.querySelectorAll<HTMLElement>(`[${buttonAttr}]`).forEach((el) => el.setAttribute('aria-pressed', String(el.getAttribute(buttonAttr) === String(index))));
}

export function initGalleries(): void {
  document.querySelectorAll<HTMLElement>('[data-gallery]').forEach((root) => {
    if (root.dataset.galleryReady) return;
    root.dataset.galleryReady = 'true';
    let current = 0;
    const dialog = root.querySelector<HTMLDialogElement>('[data-gallery-dialog]');
    root.addEventListener('click', (e) => {
      const target = (e.target as Element).closest('button');
      if (!target) return;
      if (target.hasAttribute('data-gallery-select')) {
        current = Number(target.getAttribute('data-gallery-select'));
        select(root, 'data-gallery-slide', 'data-gallery-select', current);
      } else if (target.hasAttribute('data-lightbox-select')) {
        current = Number(target.getAttribute('data-lightbox-select'));
        select(root, 'data-lightbox-slide', 'data-lightbox-select', current);
        select(root, 'data-gallery-slide', 'data-gallery-select', current);
      } else if (target.hasAttribute('data-gallery-open') && dialog) {
        select(root, 'data-lightbox-slide', 'data-lightbox-select', current);
        dialog.showModal();
      } else if (target.hasAttribute('data-gallery-close')) {
        dialog?.close();
      }
    });
    // A click on the backdrop closes the lightbox.
    dialog?.addEventListener('click', (e) => { if (e.target === dialog) dialog.close(); });
  });
}
