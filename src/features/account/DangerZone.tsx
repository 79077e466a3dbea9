import { useId, useRef, useState } from 'react';
import { apiFetch, signOut } from '../../lib/identity/session.ts';
import { fill } from '../../i18n/island.ts';
import { outcomeOf, thrown } from './api-client.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { NoticeRegion, type Notice } from './Notice.tsx';
import type { AccountMessages } from './messages.ts';

/** Multi-factor device reset (allowed for internal employees too), behind a confirmation. */
export function MfaSection({ devices, numbers, m, onReset }: { devices: number; numbers: Intl.NumberFormat; m: AccountMessages; onReset: () => void }) {
  const id = useId();
  const trigger = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const close = () => { setOpen(false); trigger.current?.focus(); };
  const confirm = async () => {
    setBusy(true);
    const outcome = await apiFetch('/api/account/mfa-reset', { method: 'POST' }).then((res) => outcomeOf(res), thrown);
    setBusy(false);
    close();
    if (outcome.kind === 'ok') {
      onReset();
      setNotice({ type: 'success', message: m['account.mfa.done'] });
    } else {
      setNotice({ type: 'error', message: m['account.mfa.failed'], detail: outcome.kind === 'invalid' ? outcome.failures.map((f) => f.code).join(', ') : outcome.detail });
    }
  };
  return (
    <section className="account-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{m['account.mfa.title']}</h2>
      <p>{m['account.mfa.text']}</p>
      <p className="account-section__meta">{fill(m['account.mfa.devices'], { count: numbers.format(devices) })}</p>
      <NoticeRegion notice={notice} m={m} onHide={() => setNotice(null)} />
      <button ref={trigger} type="button" className="btn btn--secondary" onClick={() => { setNotice(null); setOpen(true); }}>{m['account.mfa.reset']}</button>
      <ConfirmDialog
        open={open} title={m['account.mfa.confirmTitle']} text={m['account.mfa.confirmText']} confirmLabel={m['account.mfa.confirm']} cancelLabel={m['account.cancel']}
        busy={busy} busyLabel={m['account.mfa.resetting']} onConfirm={() => void confirm()} onCancel={close}
      />
    </section>
  );
}

/** Account deletion behind a confirmation that names the consequence; then signed out (spec §6). */
export function DeleteSection({ m }: { m: AccountMessages }) {
  const id = useId();
  const trigger = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const close = () => { setOpen(false); trigger.current?.focus(); };
  const confirm = async () => {
    setBusy(true);
    const outcome = await apiFetch('/api/account', { method: 'DELETE' }).then((res) => outcomeOf(res), thrown);
    if (outcome.kind === 'ok') {
      // The account and its sessions are gone: clear the local session and leave (signOut navigates home).
      await signOut();
      return;
    }
    setBusy(false);
    close();
    setNotice({ type: 'error', message: m['account.delete.failed'], detail: outcome.kind === 'invalid' ? outcome.failures.map((f) => f.code).join(', ') : outcome.detail });
  };
  return (
    <section className="account-section account-section--danger" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{m['account.delete.title']}</h2>
      <p>{m['account.delete.text']}</p>
      <NoticeRegion notice={notice} m={m} onHide={() => setNotice(null)} />
      <button ref={trigger} type="button" className="btn btn--danger" onClick={() => { setNotice(null); setOpen(true); }}>{m['account.delete.button']}</button>
      <ConfirmDialog
        open={open} title={m['account.delete.confirmTitle']} text={m['account.delete.confirmText']} confirmLabel={m['account.delete.confirm']} cancelLabel={m['account.cancel']}
        busy={busy} busyLabel={m['account.delete.deleting']} onConfirm={() => void confirm()} onCancel={close}
      />
    </section>
  );
}
