import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { fill } from '../../i18n/island.ts';
import type { AccessAction, EditStatus } from '../../lib/identity/admin-map.ts';
import { apiFetch, ensureSession } from '../../lib/identity/session.ts';
import { ConfirmDialog } from '../account/ConfirmDialog.tsx';
import { DeletedSchema, UserDetailSchema, type OrganisationView, type UserDetailView } from './api-answers.ts';
import { NoAccess, NoticeRegion, Problem, type Notice } from './shared.tsx';
import type { Option } from './UserAdminList.tsx';
import { AccessSection, EditDialog, OrganisationsSection, ProfileSection } from './UserDetailSections.tsx';
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

  const { runAction, removeMembership, deleteUser } = useDetailActions({ userId, m, listHref, setPhase, setWorking, setPending, setNotice, announce, failed });

  const cancelPending = () => {
    setPending(null);
    triggerRef.current?.focus();
  };

  const region = <NoticeRegion notice={notice} m={m} onHide={() => setNotice(null)} regionRef={resultRef} />;
  if (phase.kind !== 'ready' && phase.kind !== 'deleted') return <UnreadyView phase={phase} m={m} dashboardHref={dashboardHref} listHref={listHref} />;
  if (phase.kind === 'deleted') return <div className="user-admin">{region}</div>;

  const { user } = phase;
  const name = user.name || user.email;
  const rows = accessRows(user);
  const opener = (e: { currentTarget: HTMLElement }) => { triggerRef.current = e.currentTarget; };
  return (
    <div className="user-admin user-admin--detail">
      <h2 className="user-admin__name">{name}</h2>
      {region}

      <ProfileSection user={user} m={m} countryName={countryName} />
      <OrganisationsSection user={user} m={m} countryName={countryName} onRemove={(e, org) => { opener(e); setNotice(null); setPending({ kind: 'remove', org }); }} />
      <AccessSection
        user={user} rows={rows} m={m} date={date} working={working}
        onAction={(e, row, action) => { opener(e); if (action === 'edit') setPending({ kind: 'edit', row }); else void runAction(row, action); }}
      />

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

type SetState<T> = (value: T) => void;

/** The screen's three changes (access action, membership removal, deletion): each sends its request, then shows the user as identity management answers or the failure. */
function useDetailActions({ userId, m, listHref, setPhase, setWorking, setPending, setNotice, announce, failed }: {
  userId: string; m: UserAdminMessages; listHref: string;
  setPhase: SetState<Phase>; setWorking: SetState<string | null>; setPending: SetState<Pending>; setNotice: SetState<Notice>;
  announce: (n: Notice) => void; failed: (title: string, outcome: { status: number; error: string; message: string }) => void;
}) {
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

  return { runAction, removeMembership, deleteUser };
}

/** Every screen but the user's: loading, no access, not permitted, no such user, failed. */
function UnreadyView({ phase, m, dashboardHref, listHref }: { phase: Exclude<Phase, { kind: 'ready' } | { kind: 'deleted' }>; m: UserAdminMessages; dashboardHref: string; listHref: string }) {
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
  return (
    <Problem title={m['userAdmin.error.loadTitle']} detail={phase.detail} m={m}>
      <button type="button" className="btn btn--secondary" onClick={() => location.reload()}>{m['userAdmin.retry']}</button>
    </Problem>
  );
}
