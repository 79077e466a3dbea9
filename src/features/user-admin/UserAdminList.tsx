import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { LoadingButton } from '../../components/ui/LoadingButton.tsx';
import { fill } from '../../i18n/island.ts';
import { ACCESS_STATUSES, APPLICATIONS, type Application } from '../../lib/identity/admin-map.ts';
import { formatIdempotencyKey, IDEMPOTENCY_HEADER, keyHolder, outcomeUnknown, type KeyHolder } from '../../lib/idempotency/key.ts';
import { apiFetch, ensureSession } from '../../lib/identity/session.ts';
import { OrganisationsSchema, UserDetailSchema, UserListSchema, type OrganisationView, type UserRowView } from './api-answers.ts';
import { NoAccess, NoticeRegion, Problem, type Notice } from './shared.tsx';
import { UserTable } from './UserTable.tsx';
import {
  countryNamer, EMPTY_LIST_STATE, inviteProblems, listStateOf, nextSort, outcomeOf, pageCount, queryOf, technicalDetail, thrown,
  type ListState, type UserAdminMessages,
} from './view.ts';

export { MESSAGE_KEYS } from './view.ts';

export interface Option {
  code: string;
  name: string;
}

interface Props {
  messages: UserAdminMessages;
  /** The localized dashboard and user list paths. */
  dashboardHref: string;
  listHref: string;
  countries: Option[];
  /** Intl locale of the page (German as de-CH). */
  numberLocale: string;
}

type Phase = { kind: 'loading' } | { kind: 'no-access'; detail?: string } | { kind: 'failed'; detail: string } | { kind: 'ready' };
type Page = { users: UserRowView[]; totalCount: number; page: number } | null;


/**
 * The user administration list (spec customer-area §2, §3, §5, §8): the users the administrator
 * reaches with filters, search, sort and paging (kept in the URL), and the invite dialog. Nothing
 * personal is in the server's HTML: everything comes from /api/user-admin/* once signed in.
 */
export function UserAdminList({ messages: m, dashboardHref, listHref, countries, numberLocale }: Props) {
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [organisations, setOrganisations] = useState<OrganisationView[]>([]);
  const [state, setState] = useState<ListState>(EMPTY_LIST_STATE);
  const [page, setPage] = useState<Page>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const [inviting, setInviting] = useState(false);
  const resultRef = useRef<HTMLDivElement>(null);
  const countryName = useMemo(() => countryNamer(countries, numberLocale), [countries, numberLocale]);

  const load = useCallback(async (next: ListState) => {
    setBusy(true);
    const outcome = await apiFetch(`/api/user-admin/users${queryOf(next, true)}`).then((res) => outcomeOf(res, UserListSchema), thrown);
    setBusy(false);
    if (outcome.kind === 'ok') {
      setPage({ users: outcome.value.users, totalCount: outcome.value.totalCount, page: outcome.value.page });
      setPhase({ kind: 'ready' });
    } else if (outcome.error === 'not-admin') setPhase({ kind: 'no-access', detail: technicalDetail(outcome) });
    else setPhase({ kind: 'failed', detail: technicalDetail(outcome) });
  }, []);

  useEffect(() => {
    let live = true;
    ensureSession().then(async ({ user }) => {
      if (!live) return;
      if (!user.isDelegatedAdminExternal && !user.isDelegatedAdminInternal) {
        setPhase({ kind: 'no-access' });
        return;
      }
      const initial = listStateOf(location.search);
      setState(initial);
      const orgs = await apiFetch('/api/user-admin/organisations').then((res) => outcomeOf(res, OrganisationsSchema), thrown);
      if (!live) return;
      if (orgs.kind === 'ok') setOrganisations(orgs.value.organisations);
      await load(initial);
    }, (err: unknown) => { if (live) setPhase({ kind: 'failed', detail: thrown(err).message }); });
    return () => { live = false; };
  }, [load]);

  const apply = (next: ListState) => {
    setState(next);
    history.replaceState(history.state, '', `${location.pathname}${queryOf(next)}`);
    void load(next);
  };

  if (phase.kind === 'loading') {
    return (
      <div className="user-admin" aria-busy="true">
        <p className="user-admin__loading">{m['userAdmin.loading']}</p>
        <div className="user-admin__skeleton" aria-hidden="true"><span /><span /><span /><span /></div>
      </div>
    );
  }
  if (phase.kind === 'no-access') return <NoAccess m={m} dashboardHref={dashboardHref} detail={phase.detail} />;
  if (phase.kind === 'failed') {
    return (
      <Problem title={m['userAdmin.error.loadTitle']} detail={phase.detail} m={m}>
        <button type="button" className="btn btn--secondary" onClick={() => location.reload()}>{m['userAdmin.retry']}</button>
      </Problem>
    );
  }

  const pages = pageCount(page?.totalCount ?? 0);
  const current = Math.min(state.page, pages);
  return (
    <div className="user-admin">
      <div className="user-admin__toolbar">
        <button type="button" className="btn" onClick={() => { setNotice(null); setInviting(true); }}>{m['userAdmin.invite.open']}</button>
      </div>
      <NoticeRegion notice={notice} m={m} onHide={() => setNotice(null)} regionRef={resultRef} />
      <Filters m={m} state={state} organisations={organisations} countries={countries} onApply={apply} />
      <p className="user-admin__count" role="status">{fill(m['userAdmin.list.count'], { count: page?.totalCount ?? 0 })}</p>
      <div className="user-admin__table-wrap" aria-busy={busy || undefined}>
        <UserTable m={m} users={page?.users ?? []} sort={state.sort} listHref={listHref} countryName={countryName} onSort={(key) => apply({ ...state, sort: nextSort(state.sort, key), page: 1 })} />
      </div>
      {pages > 1 && (
        <nav className="user-admin__paging" aria-label={m['userAdmin.paging.label']}>
          <button type="button" className="btn btn--secondary" disabled={current <= 1} onClick={() => apply({ ...state, page: current - 1 })}>{m['userAdmin.paging.previous']}</button>
          <span>{fill(m['userAdmin.paging.page'], { page: current, pages })}</span>
          <button type="button" className="btn btn--secondary" disabled={current >= pages} onClick={() => apply({ ...state, page: current + 1 })}>{m['userAdmin.paging.next']}</button>
        </nav>
      )}
      <InviteDialog
        open={inviting} m={m} organisations={organisations} listHref={listHref}
        onClose={(result) => {
          setInviting(false);
          if (result) {
            setNotice(result);
            if (result.type === 'success') void load(state);
            requestAnimationFrame(() => resultRef.current?.focus());
          }
        }}
      />
    </div>
  );
}

function Filters({ m, state, organisations, countries, onApply }: { m: UserAdminMessages; state: ListState; organisations: OrganisationView[]; countries: Option[]; onApply: (s: ListState) => void }) {
  const id = useId();
  const [search, setSearch] = useState(state.search);
  useEffect(() => setSearch(state.search), [state.search]);
  const select = (field: 'orguid' | 'application' | 'status' | 'country', label: string, options: Option[]) => (
    <div className="field">
      <label className="field__label" htmlFor={`${id}-${field}`}>{label}</label>
      <select id={`${id}-${field}`} className="field__input" value={state[field]} onChange={(e) => onApply({ ...state, [field]: e.target.value, page: 1 })}>
        <option value="">{m['userAdmin.list.all']}</option>
        {options.map((o) => <option key={o.code} value={o.code}>{o.name}</option>)}
      </select>
    </div>
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply({ ...state, search: search.trim(), page: 1 });
  };
  return (
    <form className="user-admin__filters" role="search" aria-label={m['userAdmin.list.filters']} onSubmit={submit}>
      <div className="field user-admin__search">
        <label className="field__label" htmlFor={`${id}-search`}>{m['userAdmin.list.search']}</label>
        <div className="user-admin__search-row">
          <input id={`${id}-search`} className="field__input" type="search" value={search} maxLength={100} onChange={(e) => setSearch(e.target.value)} />
          <button type="submit" className="btn btn--secondary" aria-label={m['userAdmin.list.searchUsers']}>{m['userAdmin.list.searchButton']}</button>
        </div>
      </div>
      {select('orguid', m['userAdmin.col.organisation'], organisations.map((o) => ({ code: o.orguid, name: o.name })))}
      {select('application', m['userAdmin.col.application'], APPLICATIONS.map((a) => ({ code: a, name: m[`userAdmin.app.${a}`] })))}
      {select('status', m['userAdmin.col.status'], ACCESS_STATUSES.map((s) => ({ code: s, name: m[`userAdmin.status.${s}`] })))}
      {select('country', m['userAdmin.col.country'], countries)}
      <div className="user-admin__filters-reset">
        <button type="button" className="btn btn--secondary" onClick={() => onApply({ ...EMPTY_LIST_STATE, sort: state.sort })}>{m['userAdmin.list.reset']}</button>
      </div>
    </form>
  );
}

type InviteErrors = Partial<Record<'email' | 'orguid' | 'applications', string>>;

function InviteDialog({ open, m, organisations, listHref, onClose }: { open: boolean; m: UserAdminMessages; organisations: OrganisationView[]; listHref: string; onClose: (result: Notice) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [email, setEmail] = useState('');
  const [orguid, setOrguid] = useState('');
  const [apps, setApps] = useState<Application[]>([]);
  const [errors, setErrors] = useState<InviteErrors>({});
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<Notice>(null);
  // The invitation's idempotency key, made when the dialog opens and kept for retries of the same invitation.
  const keys = useRef<KeyHolder | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      keys.current = keyHolder();
      setEmail(''); setOrguid(organisations.length === 1 ? organisations[0]!.orguid : ''); setApps([]); setErrors({}); setFailure(null);
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open, organisations]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problems = inviteProblems({ email, orguid, applications: apps });
    const found: InviteErrors = Object.fromEntries(Object.entries(problems).map(([k, key]) => [k, m[key]]));
    setErrors(found);
    setFailure(null);
    const first = (['email', 'orguid', 'applications'] as const).find((f) => found[f]);
    if (first) {
      ref.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    setSending(true);
    const payload = JSON.stringify({ email: email.trim(), orguid, applications: apps });
    keys.current ??= keyHolder();
    const outcome = await apiFetch('/api/user-admin/invitations', {
      method: 'POST', headers: { 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: formatIdempotencyKey(keys.current.for(payload)) }, body: payload,
    }).then((res) => outcomeOf(res, UserDetailSchema), thrown);
    setSending(false);
    // No answer (status 0), 502, 504 or 409 without a user: whether the invitation went out is not known; the key stays for the retry.
    const unknown = outcome.kind === 'error' && (outcome.status === 0 || outcomeUnknown(outcome.status)) && typeof outcome.detail.userId !== 'string';
    if (!unknown) keys.current.settle();
    if (outcome.kind === 'ok') {
      onClose({ type: 'success', message: fill(m['userAdmin.invite.success'], { email: outcome.value.email }), link: { href: `${listHref}/${encodeURIComponent(outcome.value.id)}`, label: m['userAdmin.invite.goToProfile'] } });
      return;
    }
    if (outcome.status === 400 && (outcome.detail.field === 'email' || outcome.detail.field === 'applications')) {
      const field = outcome.detail.field;
      setErrors({ [field]: m[field === 'email' ? 'userAdmin.invite.emailInvalid' : 'userAdmin.invite.selectItem'] });
      ref.current?.querySelector<HTMLElement>(`[data-field="${field}"]`)?.focus();
      return;
    }
    if (outcome.status === 409 && typeof outcome.detail.userId === 'string') {
      const permitted = outcome.detail.permitted === true;
      setFailure({ type: 'error', message: m['userAdmin.invite.exists'], ...(permitted ? { link: { href: `${listHref}/${encodeURIComponent(outcome.detail.userId)}`, label: m['userAdmin.invite.goToProfile'] } } : {}) });
      return;
    }
    setFailure({ type: 'error', message: m[unknown ? 'userAdmin.invite.unknownOutcome' : 'userAdmin.invite.failed'], detail: fill(m['userAdmin.technicalDetails'], { message: technicalDetail(outcome) }) });
  };

  const described = (field: keyof InviteErrors) => (errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-${field}-error` } : {});
  return (
    <dialog ref={ref} className="confirm-dialog user-admin__invite" aria-labelledby={`${id}-title`} onCancel={(e) => { e.preventDefault(); if (!sending) onClose(null); }}>
      <h2 id={`${id}-title`} className="confirm-dialog__title">{m['userAdmin.invite.title']}</h2>
      <form noValidate onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`}>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-email`}>{m['userAdmin.invite.email']}</label>
          <input id={`${id}-email`} data-field="email" className="field__input" type="email" autoComplete="off" value={email} maxLength={254} onChange={(e) => setEmail(e.target.value)} {...described('email')} />
          {errors.email && <p id={`${id}-email-error`} className="field__error">{errors.email}</p>}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-org`}>{m['userAdmin.invite.organisation']}</label>
          <select id={`${id}-org`} data-field="orguid" className="field__input" value={orguid} onChange={(e) => setOrguid(e.target.value)} {...described('orguid')}>
            <option value="">{m['userAdmin.invite.choose']}</option>
            {organisations.map((o) => <option key={o.orguid} value={o.orguid}>{o.name}</option>)}
          </select>
          {errors.orguid && <p id={`${id}-orguid-error`} className="field__error">{errors.orguid}</p>}
        </div>
        <fieldset className="user-admin__apps" {...(errors.applications ? { 'aria-describedby': `${id}-applications-error` } : {})}>
          <legend className="field__label">{m['userAdmin.invite.applications']}</legend>
          {APPLICATIONS.map((a, i) => (
            <label key={a} className="user-admin__check">
              <input
                type="checkbox" value={a} checked={apps.includes(a)} {...(i === 0 ? { 'data-field': 'applications' } : {})} {...(errors.applications ? { 'aria-invalid': true } : {})}
                onChange={(e) => setApps((cur) => (e.target.checked ? [...cur, a] : cur.filter((x) => x !== a)))}
              />
              {m[`userAdmin.app.${a}`]}
            </label>
          ))}
          {errors.applications && <p id={`${id}-applications-error`} className="field__error">{errors.applications}</p>}
        </fieldset>
        <NoticeRegion notice={failure} m={m} onHide={() => setFailure(null)} />
        <div className="confirm-dialog__actions">
          <button type="button" className="btn btn--secondary" onClick={() => onClose(null)} disabled={sending}>{m['userAdmin.cancel']}</button>
          <LoadingButton type="submit" loading={sending} loadingLabel={m['userAdmin.invite.sending']}>{m['userAdmin.invite.submit']}</LoadingButton>
        </div>
      </form>
    </dialog>
  );
}
