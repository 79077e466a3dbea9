import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { LoadingButton } from '../../components/ui/LoadingButton.tsx';
import { fill } from '../../i18n/island.ts';
import { EDIT_STATUSES, type AccessAction, type Application, type EditStatus } from '../../lib/identity/admin-map.ts';
import { apiFetch, ensureSession } from '../../lib/identity/session.ts';
import { ConfirmDialog } from '../account/ConfirmDialog.tsx';
import { DeletedSchema, UserDetailSchema, type OrganisationView, type UserDetailView } from './api-answers.ts';
import { NoAccess, NoticeRegion, Problem, type Notice } from './shared.tsx';
import type { Option } from './UserAdminList.tsx';
import { accessRows, countryNamer, outcomeOf, technicalDetail, thrown, type AccessRow, type UserAdminMessages } from './view.ts';

export { MESSAGE_KEYS } from './view.ts';

interface Props {
  /** The user id from the URL (not personal data: it is in the address already). */
  userId: string;
  messages: UserAdminMessages;
  dashboardHref: string;
  listHref: string;
  countries: Option[];
  /** Intl locale for dates (German as de-CH). */
  numberLocale: string;
}

type Phase =
  | { kind: 'loading' }
  | { kind: 'no-access'; detail?: string }
  | { kind: 'forbidden'; detail: string }
  | { kind: 'invalid'; detail: string }
  | { kind: 'failed'; detail: string }
  | { kind: 'ready'; user: UserDetailView }
  | { kind: 'deleted' };

type Pending = { kind: 'remove'; org: OrganisationView } | { kind: 'delete' } | { kind: 'edit'; row: AccessRow } | null;

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * A user's detail for the administrator (spec customer-area §3, §4, §6, §8): profile,
 * organisations (remove a membership; a warning for one of the administrator's own), application
 * access with the actions identity management allows in each state, and deletion. Each result goes
 * to a live region that takes the focus; each failure has its own title and the technical detail.
 */
export function UserAdminDetail({ userId, messages: m, dashboardHref, listHref, countries, numberLocale }: Props) {
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [ownOrgs, setOwnOrgs] = useState<string[]>([]);
  const [notice, setNotice] = useState<Notice>(null);
  const [working, setWorking] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLElement | null>(null);
  const countryName = useMemo(() => countryNamer(countries, numberLocale), [countries, numberLocale]);
  const dates = useMemo(() => new Intl.DateTimeFormat(numberLocale, { dateStyle: 'medium' }), [numberLocale]);
  const date = (iso: string | null) => (iso && !Number.isNaN(Date.parse(iso)) ? dates.format(new Date(iso)) : '');

  const show = useCallback((outcome: Awaited<ReturnType<typeof loadUser>>) => {
    if (outcome.kind === 'ok') return setPhase({ kind: 'ready', user: outcome.value });
    const detail = technicalDetail(outcome);
    if (outcome.error === 'not-admin') setPhase({ kind: 'no-access', detail });
    else if (outcome.status === 403) setPhase({ kind: 'forbidden', detail });
    else if (outcome.status === 404 || outcome.status === 400) setPhase({ kind: 'invalid', detail });
    else setPhase({ kind: 'failed', detail });
  }, []);

  useEffect(() => {
    let live = true;
    ensureSession().then(async ({ user }) => {
      if (!live) return;
      if (!user.isDelegatedAdminExternal && !user.isDelegatedAdminInternal) return setPhase({ kind: 'no-access' });
      const [target, me] = await Promise.all([loadUser(userId), user.id === userId ? null : loadUser(user.id)]);
      if (!live) return;
      const mine = user.id === userId ? target : me;
      if (mine?.kind === 'ok') setOwnOrgs(mine.value.organisations.map((o) => o.orguid));
      show(target);
    }, (err: unknown) => { if (live) setPhase({ kind: 'failed', detail: thrown(err).message }); });
    return () => { live = false; };
  }, [userId, show]);

  const announce = (n: Notice) => {
    setNotice(n);
    requestAnimationFrame(() => resultRef.current?.focus());
  };
  const failed = (title: string, outcome: { status: number; error: string; message: string }) =>
    announce({ type: 'error', message: title, detail: fill(m['userAdmin.technicalDetails'], { message: technicalDetail(outcome) }) });

  const runAction = async (row: AccessRow, action: AccessAction, status?: EditStatus) => {
    setWorking(`${row.application}:${action}`);
    setNotice(null);
    const outcome = await apiFetch(`/api/user-admin/users/${encodeURIComponent(userId)}/access/${row.application}`, {
      method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ action, ...(status ? { status } : {}) }),
    }).then((res) => outcomeOf(res, UserDetailSchema), thrown);
    setWorking(null);
    setPending(null);
    if (outcome.kind === 'ok') {
      setPhase({ kind: 'ready', user: outcome.value });
      const now = accessRows(outcome.value).find((r) => r.application === row.application)!;
      announce({ type: 'success', message: fill(m['userAdmin.action.done'], { action: m[`userAdmin.action.${action}`], application: m[`userAdmin.app.${row.application}`], status: m[`userAdmin.status.${now.status}`] }) });
    } else failed(m[`userAdmin.failed.${action}`], outcome);
  };

  const removeMembership = async (org: OrganisationView) => {
    setWorking(`org:${org.orguid}`);
    setNotice(null);
    const outcome = await apiFetch(`/api/user-admin/users/${encodeURIComponent(userId)}/organisations/${encodeURIComponent(org.orguid)}`, { method: 'DELETE' })
      .then((res) => outcomeOf(res, UserDetailSchema), thrown);
    setWorking(null);
    setPending(null);
    if (outcome.kind === 'ok') {
      setPhase({ kind: 'ready', user: outcome.value });
      announce({ type: 'success', message: fill(m['userAdmin.org.removed'], { organisation: org.name }) });
    } else failed(m['userAdmin.org.removeFailed'], outcome);
  };

  const deleteUser = async (name: string) => {
    setWorking('delete');
    setNotice(null);
    const outcome = await apiFetch(`/api/user-admin/users/${encodeURIComponent(userId)}`, { method: 'DELETE' }).then((res) => outcomeOf(res, DeletedSchema), thrown);
    setWorking(null);
    setPending(null);
    if (outcome.kind === 'ok') {
      setPhase({ kind: 'deleted' });
      announce({ type: 'success', message: fill(m['userAdmin.delete.done'], { name }), link: { href: listHref, label: m['userAdmin.backToList'] } });
    } else failed(m['userAdmin.delete.failed'], outcome);
  };

  const cancelPending = () => {
    setPending(null);
    triggerRef.current?.focus();
  };

  const region = <NoticeRegion notice={notice} m={m} onHide={() => setNotice(null)} regionRef={resultRef} />;
  if (phase.kind === 'loading') {
    return (
      <div className="user-admin" aria-busy="true">
        <p className="user-admin__loading">{m['userAdmin.loading']}</p>
        <div className="user-admin__skeleton" aria-hidden="true"><span /><span /><span /></div>
      </div>
    );
  }
  if (phase.kind === 'no-access') return <NoAccess m={m} dashboardHref={dashboardHref} detail={phase.detail} />;
  if (phase.kind === 'forbidden') return <Problem title={m['userAdmin.error.noPermission']} detail={phase.detail} m={m}><p><a href={listHref}>{m['userAdmin.backToList']}</a></p></Problem>;
  if (phase.kind === 'invalid') return <Problem title={m['userAdmin.error.invalidUser']} text={m['userAdmin.error.invalidUserText']} detail={phase.detail} m={m}><p><a href={listHref}>{m['userAdmin.backToList']}</a></p></Problem>;
  if (phase.kind === 'failed') {
    return (
      <Problem title={m['userAdmin.error.loadTitle']} detail={phase.detail} m={m}>
        <button type="button" className="btn btn--secondary" onClick={() => location.reload()}>{m['userAdmin.retry']}</button>
      </Problem>
    );
  }
  if (phase.kind === 'deleted') return <div className="user-admin">{region}</div>;

  const { user } = phase;
  const name = user.name || user.email;
  const rows = accessRows(user);
  const opener = (e: { currentTarget: HTMLElement }) => { triggerRef.current = e.currentTarget; };
  return (
    <div className="user-admin user-admin--detail">
      <h2 className="user-admin__name">{name}</h2>
      {region}

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
                    onClick={(e) => { opener(e); setNotice(null); setPending({ kind: 'remove', org: o }); }}>{m['userAdmin.org.remove']}</button>
                ) : <span className="user-admin__meta">{m['userAdmin.org.notAdministered']}</span>}
              </li>
            ))}
          </ul>
        )}
      </section>

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
                    onClick={(e) => { opener(e); if (action === 'edit') setPending({ kind: 'edit', row }); else void runAction(row, action); }}
                  >{m[`userAdmin.action.${action}`]}</LoadingButton>
                ))}
              </div>
            </li>
          ))}
        </ul>
      </section>

      {user.canDelete && (
        <section className="user-admin__section user-admin__section--danger" aria-labelledby="ua-delete">
          <h3 id="ua-delete">{m['userAdmin.delete.title']}</h3>
          <p>{m['userAdmin.delete.text']}</p>
          <button type="button" className="btn btn--danger" onClick={(e) => { opener(e); setNotice(null); setPending({ kind: 'delete' }); }}>{m['userAdmin.delete.button']}</button>
        </section>
      )}

      <ConfirmDialog
        open={pending?.kind === 'remove'} title={m['userAdmin.org.removeConfirmTitle']}
        text={pending?.kind === 'remove' ? [fill(m['userAdmin.org.removeConfirmText'], { name, organisation: pending.org.name }), ownOrgs.includes(pending.org.orguid) ? m['userAdmin.org.ownWarning'] : ''].filter(Boolean).join(' ') : ''}
        confirmLabel={m['userAdmin.org.remove']} cancelLabel={m['userAdmin.cancel']} busy={working?.startsWith('org:') ?? false} busyLabel={m['userAdmin.org.removing']}
        onConfirm={() => { if (pending?.kind === 'remove') void removeMembership(pending.org); }} onCancel={cancelPending}
      />
      <ConfirmDialog
        open={pending?.kind === 'delete'} title={m['userAdmin.delete.confirmTitle']} text={fill(m['userAdmin.delete.confirmText'], { name })}
        confirmLabel={m['userAdmin.delete.button']} cancelLabel={m['userAdmin.cancel']} busy={working === 'delete'} busyLabel={m['userAdmin.delete.deleting']}
        onConfirm={() => void deleteUser(name)} onCancel={cancelPending}
      />
      <EditDialog
        row={pending?.kind === 'edit' ? pending.row : null} m={m} busy={working?.endsWith(':edit') ?? false}
        onSave={(row, status) => void runAction(row, 'edit', status)} onCancel={cancelPending}
      />
    </div>
  );
}

async function loadUser(id: string) {
  return apiFetch(`/api/user-admin/users/${encodeURIComponent(id)}`).then((res) => outcomeOf(res, UserDetailSchema), thrown);
}

function EditDialog({ row, m, busy, onSave, onCancel }: { row: AccessRow | null; m: UserAdminMessages; busy: boolean; onSave: (row: AccessRow, status: EditStatus) => void; onCancel: () => void }) {
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
