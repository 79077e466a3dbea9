import * as v from 'valibot';
import type { IslandMessages } from '../../i18n/island.ts';
import {
  ACCESS_ACTIONS, ACCESS_STATUSES, APPLICATIONS, SORT_KEYS, type AccessAction, type AccessStatus, type Application, type SortKey, type UserDetail,
} from '../../lib/identity/admin-map.ts';
import { isEmail } from './schema.ts';

/*
 * The user administration screens' view models (pure, tested): the list's query and its URL, sort
 * and paging, the invite form's checks, the access rows with their action buttons, and the reading
 * of the API's answers.
 */

export const MESSAGE_KEYS = [
  'userAdmin.loading', 'userAdmin.backToDashboard', 'userAdmin.backToList', 'userAdmin.error.details', 'userAdmin.technicalDetails',
  'userAdmin.error.loadTitle', 'userAdmin.error.noPermission', 'userAdmin.error.invalidUser', 'userAdmin.error.invalidUserText', 'userAdmin.retry',
  'userAdmin.noAccess.title', 'userAdmin.noAccess.text', 'userAdmin.noAccess.how',
  'userAdmin.list.label', 'userAdmin.list.search', 'userAdmin.list.searchButton', 'userAdmin.list.searchUsers', 'userAdmin.list.filters', 'userAdmin.list.all', 'userAdmin.list.reset',
  'userAdmin.list.count', 'userAdmin.list.empty', 'userAdmin.list.none',
  'userAdmin.col.name', 'userAdmin.col.email', 'userAdmin.col.organisation', 'userAdmin.col.role', 'userAdmin.col.status', 'userAdmin.col.application',
  'userAdmin.col.country', 'userAdmin.col.city', 'userAdmin.sort.by',
  'userAdmin.paging.label', 'userAdmin.paging.previous', 'userAdmin.paging.next', 'userAdmin.paging.page',
  'userAdmin.role.admin', 'userAdmin.role.user',
  ...ACCESS_STATUSES.map((s) => `userAdmin.status.${s}` as const), 'userAdmin.status.none',
  ...APPLICATIONS.map((a) => `userAdmin.app.${a}` as const),
  'userAdmin.invite.open', 'userAdmin.invite.title', 'userAdmin.invite.email', 'userAdmin.invite.organisation', 'userAdmin.invite.applications',
  'userAdmin.invite.submit', 'userAdmin.invite.sending', 'userAdmin.invite.emailInvalid', 'userAdmin.invite.selectItem', 'userAdmin.invite.success',
  'userAdmin.invite.failed', 'userAdmin.invite.unknownOutcome', 'userAdmin.invite.exists', 'userAdmin.invite.goToProfile', 'userAdmin.invite.choose', 'userAdmin.cancel',
  'userAdmin.profile.title', 'userAdmin.profile.firstName', 'userAdmin.profile.lastName', 'userAdmin.profile.telephone', 'userAdmin.profile.company',
  'userAdmin.org.title', 'userAdmin.org.members', 'userAdmin.org.none', 'userAdmin.org.remove', 'userAdmin.org.removeConfirmTitle',
  'userAdmin.org.removeConfirmText', 'userAdmin.org.ownWarning', 'userAdmin.org.removing', 'userAdmin.org.removed', 'userAdmin.org.removeFailed',
  'userAdmin.org.notAdministered', 'userAdmin.restriction.ownAccount', 'userAdmin.restriction.otherOrganisations',
  'userAdmin.access.title', 'userAdmin.access.requestedBy', 'userAdmin.access.requestDate', 'userAdmin.access.expires', 'userAdmin.access.noActions',
  ...ACCESS_ACTIONS.map((a) => `userAdmin.action.${a}` as const),
  ...ACCESS_ACTIONS.map((a) => `userAdmin.failed.${a}` as const),
  'userAdmin.action.named', 'userAdmin.action.done', 'userAdmin.action.working', 'userAdmin.edit.title', 'userAdmin.edit.status', 'userAdmin.edit.save',
  'userAdmin.delete.title', 'userAdmin.delete.text', 'userAdmin.delete.button', 'userAdmin.delete.confirmTitle', 'userAdmin.delete.confirmText',
  'userAdmin.delete.deleting', 'userAdmin.delete.done', 'userAdmin.delete.failed',
  'flash.success', 'flash.error', 'flash.dismiss',
] as const;

export type UserAdminMessages = IslandMessages<typeof MESSAGE_KEYS>;

/** The list's query as the page keeps it (and its URL shows it). */
export interface ListState {
  search: string;
  orguid: string;
  application: string;
  status: string;
  country: string;
  sort: string;
  page: number;
}

export const PAGE_SIZE = 20;
export const EMPTY_LIST_STATE: ListState = { search: '', orguid: '', application: '', status: '', country: '', sort: 'name', page: 1 };

const FIELDS = ['search', 'orguid', 'application', 'status', 'country', 'sort'] as const;
const SORTS: readonly string[] = [...SORT_KEYS, ...SORT_KEYS.map((k) => `-${k}`)];

/** The list state of a page URL's query (unknown values fall back to the defaults). */
export function listStateOf(search: string): ListState {
  const q = new URLSearchParams(search);
  const page = Number(q.get('page'));
  const state: ListState = { ...EMPTY_LIST_STATE, page: Number.isInteger(page) && page >= 1 && page <= 100000 ? page : 1 };
  for (const f of FIELDS) {
    const value = (q.get(f) ?? '').slice(0, 100);
    if (value) state[f] = value;
  }
  if (!SORTS.includes(state.sort)) state.sort = 'name';
  if (state.application && !(APPLICATIONS as readonly string[]).includes(state.application)) state.application = '';
  if (state.status && !(ACCESS_STATUSES as readonly string[]).includes(state.status)) state.status = '';
  return state;
}

/** The query string of a list state (defaults left out), for the page URL and for the API (with pageSize). */
export function queryOf(state: ListState, withPageSize = false): string {
  const q = new URLSearchParams();
  for (const f of FIELDS) if (state[f] && !(f === 'sort' && state.sort === 'name' && !withPageSize)) q.set(f, state[f]);
  if (state.page > 1) q.set('page', String(state.page));
  if (withPageSize) q.set('pageSize', String(PAGE_SIZE));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Clicking a column header: ascending first, the same column again flips the direction. */
export function nextSort(current: string, key: SortKey): string {
  return current === key ? `-${key}` : key;
}

/** `aria-sort` of a column header. */
export function ariaSort(current: string, key: SortKey): 'ascending' | 'descending' | 'none' {
  return current === key ? 'ascending' : current === `-${key}` ? 'descending' : 'none';
}

export function pageCount(totalCount: number, pageSize = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(totalCount / pageSize));
}

/** The invite form's field problems (message keys), in form order; empty when it may be sent. */
export function inviteProblems(form: { email: string; orguid: string; applications: readonly string[] }): Partial<Record<'email' | 'orguid' | 'applications', UserAdminMessageKey>> {
  const out: Partial<Record<'email' | 'orguid' | 'applications', UserAdminMessageKey>> = {};
  if (!isEmail(form.email)) out.email = 'userAdmin.invite.emailInvalid';
  if (!form.orguid) out.orguid = 'userAdmin.invite.selectItem';
  if (form.applications.length === 0) out.applications = 'userAdmin.invite.selectItem';
  return out;
}

export type UserAdminMessageKey = (typeof MESSAGE_KEYS)[number];

/** One application of a user as the access table shows it: its status (`none` without a record) and the action buttons. */
export interface AccessRow {
  application: Application;
  status: AccessStatus | 'none';
  requestedBy: string;
  requestDate: string;
  inviteExpiresAt: string | null;
  actions: AccessAction[];
}

/** Without a record an application may be invited to or added (contract: `invite`, `add` from no record). */
export const NO_RECORD_ACTIONS: readonly AccessAction[] = ['invite', 'add'];

/**
 * Every application in the fixed order: the user's records with exactly the actions identity
 * management allows for them, then the applications without a record (invite, add). Without the
 * right to change the user's access (`canChangeAccess`, policy.ts) no row has an action.
 */
export function accessRows(user: Pick<UserDetail, 'access'> & { canChangeAccess: boolean }): AccessRow[] {
  return APPLICATIONS.map((application) => {
    const record = user.access.find((a) => a.application === application);
    if (!record) return { application, status: 'none', requestedBy: '', requestDate: '', inviteExpiresAt: null, actions: user.canChangeAccess ? [...NO_RECORD_ACTIONS] : [] };
    return {
      application, status: record.status, requestedBy: record.requestedBy, requestDate: record.requestDate, inviteExpiresAt: record.inviteExpiresAt,
      actions: user.canChangeAccess ? ACCESS_ACTIONS.filter((a) => record.actions.includes(a)) : [],
    };
  });
}

/** A same-origin API answer, read. */
export type Outcome<T> =
  | { kind: 'ok'; value: T }
  | { kind: 'error'; status: number; error: string; message: string; detail: Record<string, unknown> };

const ErrorBody = v.object({ error: v.optional(v.string(), ''), message: v.optional(v.string(), ''), detail: v.optional(v.record(v.string(), v.unknown()), {}) });

/** Reads an answer: the body on success (checked by `schema`), else status, error code, message and detail. */
export async function outcomeOf<S extends v.GenericSchema>(res: Response, schema: S): Promise<Outcome<v.InferOutput<S>>> {
  const body: unknown = await res.json().catch(() => null);
  if (res.ok) {
    const parsed = v.safeParse(schema, body);
    return parsed.success ? { kind: 'ok', value: parsed.output } : { kind: 'error', status: 502, error: 'invalid-answer', message: `Unexpected answer (${res.status}): ${parsed.issues[0].message}`, detail: {} };
  }
  const err = v.safeParse(ErrorBody, body);
  const e = err.success ? err.output : { error: '', message: '', detail: {} };
  return { kind: 'error', status: res.status, error: e.error || `http-${res.status}`, message: e.message || `HTTP ${res.status}`, detail: e.detail };
}

/** A fetch that threw (network, sign-in failure) as an error outcome. */
export function thrown(err: unknown): { kind: 'error'; status: 0; error: 'network'; message: string; detail: Record<string, unknown> } {
  return { kind: 'error', status: 0, error: 'network', message: err instanceof Error ? err.message : String(err), detail: {} };
}

/** The technical detail line of a failure (`403 forbidden: Not permitted for this user`). */
export function technicalDetail(o: { status: number; error: string; message: string }): string {
  return o.status ? `${o.status} ${o.error}: ${o.message}` : o.message;
}

/**
 * The name of a country code in the page's language: the site's country list first, else the
 * browser's region names, else the code.
 */
export function countryNamer(known: readonly { code: string; name: string }[], locale: string): (code: string) => string {
  const map = new Map(known.map((c) => [c.code, c.name]));
  let regions: Intl.DisplayNames | null = null;
  try {
    regions = new Intl.DisplayNames([locale, 'en'], { type: 'region' });
  } catch {
    regions = null;
  }
  return (code) => {
    if (!code) return '';
    const known = map.get(code);
    if (known) return known;
    try {
      return regions?.of(code) ?? code;
    } catch {
      return code;
    }
  };
}
