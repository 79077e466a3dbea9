import { useEffect, useId, useRef } from 'react';
import { LoadingButton } from '../../components/ui/LoadingButton.tsx';

interface Props {
  open: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  cancelLabel: string;
  busy: boolean;
  busyLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A modal confirmation (native `<dialog>`: focus kept inside, Escape cancels, the page behind is
 * inert). Cancel comes first, so `showModal()` focuses it: the safe choice is the default one.
 */
export function ConfirmDialog({ open, title, text, confirmLabel, cancelLabel, busy, busyLabel, onConfirm, onCancel }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="confirm-dialog" aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`} onCancel={(e) => { e.preventDefault(); if (!busy) onCancel(); }}>
      <h2 id={`${id}-title`} className="confirm-dialog__title">{title}</h2>
      <p id={`${id}-text`}>{text}</p>
      <div className="confirm-dialog__actions">
        <button type="button" className="btn btn--secondary" onClick={onCancel} disabled={busy}>{cancelLabel}</button>
        <LoadingButton type="button" className="btn--danger" loading={busy} loadingLabel={busyLabel} onClick={onConfirm}>{confirmLabel}</LoadingButton>
      </div>
    </dialog>
  );
}
