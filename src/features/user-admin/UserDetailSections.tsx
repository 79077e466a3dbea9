import { useEffect, useId, useRef, useState } from 'react';
import { LoadingButton } from '../../components/ui/LoadingButton.tsx';
import { fill } from '../../i18n/island.ts';
import { EDIT_STATUSES, type AccessAction, type Application, type EditStatus } from '../../lib/identity/admin-map.ts';
import type { OrganisationView, UserDetailView } from './api-answers.ts';
import type { AccessRow, UserAdminMessages } from './view.ts';

/*
 * The sections of UserAdminDetail's ready screen: what they show of the user, and which button
 * asks the screen for which action (the screen runs them and confirms the risky ones).
 */

/** Opens a confirmation or runs an action; `opener` is the button, which gets the focus back on cancel. */
type Opener = { currentTarget: HTMLElement };

export function ProfileSection({ user, m, countryName }: { user: UserDetailView; m: UserAdminMessages; countryName: (code: string) => string }) {
  return (
    <section className="user-admin__section" aria-labelledby="ua-profile">
      <h3 id="ua-profile">{m['userAdmin.profile.title']}</h3>
      <dl className="user-admin__profile">
        <div><dt>{m['userAdmin.profile.firstName']}</dt><dd>{user.firstName || '–'}</dd></div>
        <div><dt>{m['userAdmin.profile.lastName']}</dt><dd>{user.lastName || '–'}</dd></div>
        <div><dt>{m['userAdmin.col.email']}</dt><dd>{user.email}</dd></div>
        <div><dt>{m['userAdmin.profile.telephone']}</dt><dd>{user.telephone || '–'}</dd></div>
        <div><dt>{m['userAdmin.profile.company']}</dt><dd>{user.company || '–'}</dd></div>
        <div><dt>{m['userAdmin.col.country']}</dt><dd>{countryName(user.country) || '–'}</dd></div>
        <div><dt>{m['userAdmin.col.city']}</dt><dd>{user.city || '–'}</dd></div>
        <div><dt>{m['userAdmin.col.role']}</dt><dd>{m[`userAdmin.role.${user.role}`]}</dd></div>
      </dl>
    </section>
  );
}

export function OrganisationsSection({ user, m, countryName, onRemove }: {
  user: UserDetailView; m: UserAdminMessages; countryName: (code: string) => string; onRemove: (e: Opener, org: OrganisationView) => void;
}) {
  return (
    <section className="user-admin__section" aria-labelledby="ua-orgs">
      <h3 id="ua-orgs">{m['userAdmin.org.title']}</h3>
      {user.organisations.length === 0 ? <p>{m['userAdmin.org.none']}</p> : (
        <ul className="user-admin__orgs">
          {user.organisations.map((o) => (
            <li key={o.orguid} className="user-admin__org">
              <div>
                <strong>{o.name}</strong>
                <span className="user-admin__meta">{[o.subregion, countryName(o.country), o.city].filter(Boolean).join(' · ')} · {fill(m['userAdmin.org.members'], { count: o.members })}</span>
              </div>
              {o.removable ? (
                <button type="button" className="btn btn--secondary btn--small" aria-label={fill(m['userAdmin.action.named'], { action: m['userAdmin.org.remove'], application: o.name })}
                  onClick={(e) => onRemove(e, o)}>{m['userAdmin.org.remove']}</button>
              ) : <span className="user-admin__meta">{m['userAdmin.org.notAdministered']}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function AccessSection({ user, rows, m, date, working, onAction }: {
  user: UserDetailView; rows: AccessRow[]; m: UserAdminMessages; date: (iso: string | null) => string; working: string | null; onAction: (e: Opener, row: AccessRow, action: AccessAction) => void;
}) {
  return (
    <section className="user-admin__section" aria-labelledby="ua-access">
      <h3 id="ua-access">{m['userAdmin.access.title']}</h3>
      {user.restriction && <p className="user-admin__restriction" role="note">{m[user.restriction === 'own-account' ? 'userAdmin.restriction.ownAccount' : 'userAdmin.restriction.otherOrganisations']}</p>}
      <ul className="user-admin__access">
        {rows.map((row) => (
          <li key={row.application} className="user-admin__access-row" data-application={row.application} data-status={row.status}>
            <div className="user-admin__access-head">
              <strong>{m[`userAdmin.app.${row.application}`]}</strong>
              <span className={`status-badge status-badge--${row.status}`}>{m[`userAdmin.status.${row.status}`]}</span>
            </div>
            {row.status !== 'none' && (
              <p className="user-admin__meta">
                {row.requestedBy && <span>{m['userAdmin.access.requestedBy']}: {row.requestedBy}</span>}
                {row.requestDate && <span>{m['userAdmin.access.requestDate']}: {date(row.requestDate)}</span>}
                {(row.status === 'invited' || row.status === 'inviteexpired') && row.inviteExpiresAt && <span>{m['userAdmin.access.expires']}: {date(row.inviteExpiresAt)}</span>}
              </p>
            )}
            <div className="user-admin__actions">
              {row.actions.length === 0 && user.canChangeAccess && <span className="user-admin__meta">{m['userAdmin.access.noActions']}</span>}
              {row.actions.map((action) => (
                <LoadingButton
                  key={action} type="button" variant={action === 'decline' || action === 'withdraw' ? 'secondary' : 'primary'} className="btn--small"
                  loading={working === `${row.application}:${action}`} loadingLabel={m['userAdmin.action.working']} disabled={working !== null}
                  aria-label={fill(m['userAdmin.action.named'], { action: m[`userAdmin.action.${action}`], application: m[`userAdmin.app.${row.application}`] })}
                  onClick={(e) => onAction(e, row, action)}
                >{m[`userAdmin.action.${action}`]}</LoadingButton>
              ))}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The edit action's dialog: the new status of one application's access. */
export function EditDialog({ row, m, busy, onSave, onCancel }: { row: AccessRow | null; m: UserAdminMessages; busy: boolean; onSave: (row: AccessRow, status: EditStatus) => void; onCancel: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [status, setStatus] = useState<EditStatus>('active');
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (row && !dialog.open) {
      setStatus(row.status === 'active' ? 'inactive' : 'active');
      dialog.showModal();
    }
    if (!row && dialog.open) dialog.close();
  }, [row]);
  const app: Application | null = row?.application ?? null;
  return (
    <dialog ref={ref} className="confirm-dialog" aria-labelledby={`${id}-title`} onCancel={(e) => { e.preventDefault(); if (!busy) onCancel(); }}>
      <h2 id={`${id}-title`} className="confirm-dialog__title">{m['userAdmin.edit.title']}{app ? `: ${m[`userAdmin.app.${app}`]}` : ''}</h2>
      <form onSubmit={(e) => { e.preventDefault(); if (row) onSave(row, status); }}>
        <fieldset className="user-admin__apps">
          <legend className="field__label">{m['userAdmin.edit.status']}</legend>
          {EDIT_STATUSES.map((s) => (
            <label key={s} className="user-admin__check">
              <input type="radio" name={`${id}-status`} value={s} checked={status === s} onChange={() => setStatus(s)} />
              {m[`userAdmin.status.${s}`]}
            </label>
          ))}
        </fieldset>
        <div className="confirm-dialog__actions">
          <button type="button" className="btn btn--secondary" onClick={onCancel} disabled={busy}>{m['userAdmin.cancel']}</button>
          <LoadingButton type="submit" loading={busy} loadingLabel={m['userAdmin.action.working']}>{m['userAdmin.edit.save']}</LoadingButton>
        </div>
      </form>
    </dialog>
  );
}
