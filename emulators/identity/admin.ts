// Delegated user administration (issue 12): the custom IDM endpoint {IDM}/endpoint/kmx-admin/… —
// organisations, the user list, a user's detail, invitations, the access actions, membership removal
// and deletion. The permission rule and the action/state table (access.ts) are enforced on every call;
// the app enforces the same rule itself (src/features/user-admin/policy.ts, issue 28).
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as v from 'valibot';
import { fingerprintOf, IDEMPOTENCY_REFUSALS, IdempotencyKeys, idempotencyKeyOf } from '../shared/idempotency.ts';
import {
  ACTIONS, APPLICATIONS, EDIT_STATUSES, EFFECTIVE_STATUSES, INVITE_MS, ROLE_EXTERN, ROLE_INTERN,
  adminScope, administers, allowedActions, effectiveStatus, mayChange, mayRemoveMembership, reaches, transition,
  type AdminScope, type TargetFacts,
} from './access.ts';
import { fieldRequirements } from './policy.ts';
import { BodyTooLarge, readBody, sendJson } from './http.ts';
import type { AccessRecord, IdentityUser, Organisation, UserStore } from './store.ts';

export const ADMIN_BASE = '/openidm/endpoint/kmx-admin';

const ADMIN_REQUIRED = { code: 403, reason: 'Forbidden', message: 'Delegated admin role required' };
const NOT_PERMITTED = { code: 403, reason: 'Forbidden', message: 'Not permitted for this user' };
const ORG_NOT_PERMITTED = { code: 403, reason: 'Forbidden', message: 'Not permitted for this organisation' };
const NOT_EVERY_ORG = { code: 403, reason: 'Forbidden', message: 'The user belongs to organisations you do not administer' };
const OWN_ACCESS = { code: 403, reason: 'Forbidden', message: 'You cannot change your own application access' };
const notFound = (message: string) => ({ code: 404, reason: 'Not Found', message });
const badRequest = (message: string, field?: string) => ({ code: 400, reason: 'Bad Request', message, ...(field ? { detail: { field } } : {}) });
const conflict = (message: string, detail?: Record<string, unknown>) => ({ code: 409, reason: 'Conflict', message, ...(detail ? { detail } : {}) });

export const SORT_KEYS = ['name', 'email', 'organisation', 'status', 'country', 'city'] as const;
type SortKey = (typeof SORT_KEYS)[number];
const SORTS = [...SORT_KEYS, ...SORT_KEYS.map((k) => `-${k}` as const)];

const whole = (name: string, min: number, max: number, fallback: string) => v.optional(v.pipe(
  v.string(),
  v.regex(/^\d{1,6}$/, `${name} must be a whole number`),
  v.transform(Number),
  v.minValue(min, `${name} must be at least ${min}`),
  v.maxValue(max, `${name} must be at most ${max}`),
), fallback);

const ListQuery = v.object({
  search: v.optional(v.pipe(v.string(), v.maxLength(100, 'search must be at most 100 characters')), ''),
  orguid: v.optional(v.pipe(v.string(), v.maxLength(100, 'orguid must be at most 100 characters'))),
  application: v.optional(v.picklist(APPLICATIONS, `application must be one of ${APPLICATIONS.join(', ')}`)),
  status: v.optional(v.picklist(EFFECTIVE_STATUSES, `status must be one of ${EFFECTIVE_STATUSES.join(', ')}`)),
  country: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z]{2}$/, 'country must be an ISO 3166 alpha-2 code'))),
  sort: v.optional(v.picklist(SORTS, `sort must be one of ${SORT_KEYS.join(', ')} (prefixed - for descending)`), 'name'),
  page: whole('page', 1, 100000, '1'),
  pageSize: whole('pageSize', 1, 100, '20'),
});

const Invitation = v.object({
  email: v.pipe(
    v.string('email is required'),
    v.trim(),
    v.check((mail) => fieldRequirements('mail', mail).length === 0, 'email must be a valid e-mail address'),
  ),
  orguid: v.pipe(v.string('orguid is required'), v.minLength(1, 'orguid is required')),
  applications: v.pipe(
    v.array(v.picklist(APPLICATIONS, `applications must be ids of ${APPLICATIONS.join(', ')}`), 'applications must be an array of application ids'),
    v.minLength(1, 'applications must name at least one application'),
  ),
}, 'the body must be an object { email, orguid, applications }');

const ActionQuery = v.picklist(ACTIONS, `_action must be one of ${ACTIONS.join(', ')}`);
const EditBody = v.object({ status: v.picklist(EDIT_STATUSES, 'status must be "active" or "inactive"') }, 'edit needs a body { "status": "active" | "inactive" }');

export interface AdminDeps {
  store: UserStore;
  /** Ends the sessions and grants of a deleted account. */
  endAccount(accountId: string): Promise<void>;
  /** The clock (ms), for invitation expiry. */
  now?: () => number;
}

export interface UserRow {
  id: string;
  name: string;
  email: string;
  organisations: { orguid: string; name: string }[];
  role: 'admin' | 'user';
  /** Which delegated admin role the user has (null: none). */
  adminKind: 'intern' | 'extern' | null;
  internallyManaged: boolean;
  /** The most recent access record's (null without any). */
  status: string | null;
  application: string | null;
  country: string;
  city: string;
  applications: { application: string; status: string }[];
}

const nameOf = (user: IdentityUser) => `${user.givenName} ${user.sn}`.trim();
const roleOf = (user: IdentityUser): 'admin' | 'user' => (user.roles.includes(ROLE_INTERN) || user.roles.includes(ROLE_EXTERN) ? 'admin' : 'user');
const adminKindOf = (user: IdentityUser): 'intern' | 'extern' | null => (user.roles.includes(ROLE_INTERN) ? 'intern' : user.roles.includes(ROLE_EXTERN) ? 'extern' : null);

/** What the permission rule needs to know about a user. */
export function factsOf(store: UserStore, user: IdentityUser): TargetFacts {
  return { id: user._id, roles: store.staticRoles(user._id), internallyManaged: user.custom_internallyManaged, memberships: store.memberships(user._id) };
}

/** The most recent record first (updatedAt, then request date, then application order). */
function byRecency(a: AccessRecord, b: AccessRecord): number {
  return b.updatedAt.localeCompare(a.updatedAt) || b.requestDate.localeCompare(a.requestDate)
    || (APPLICATIONS as readonly string[]).indexOf(a.application) - (APPLICATIONS as readonly string[]).indexOf(b.application);
}

function userRow(store: UserStore, user: IdentityUser, orgs: Map<string, Organisation>, now: number): UserRow {
  const records = store.access(user._id);
  const latest = [...records].sort(byRecency)[0];
  return {
    id: user._id,
    name: nameOf(user),
    email: user.mail,
    organisations: store.memberships(user._id).map((orguid) => ({ orguid, name: orgs.get(orguid)?.name ?? orguid })).sort((a, b) => a.name.localeCompare(b.name)),
    role: roleOf(user),
    adminKind: adminKindOf(user),
    internallyManaged: user.custom_internallyManaged,
    status: latest ? effectiveStatus(latest, now) : null,
    application: latest?.application ?? null,
    country: user.country,
    city: user.city,
    applications: records.map((r) => ({ application: r.application, status: effectiveStatus(r, now) })),
  };
}

/** A user as the detail page shows it (GET /users/{id}): the actions offered are those `scope` may take. */
export function userDetail(store: UserStore, user: IdentityUser, scope: AdminScope, now: number) {
  const orgs = new Map(store.organisations().map((o) => [o.orguid, o]));
  const change = mayChange(scope, factsOf(store, user));
  return {
    id: user._id,
    givenName: user.givenName,
    sn: user.sn,
    name: nameOf(user),
    email: user.mail,
    telephone: user.telephoneNumber,
    company: user.custom_company,
    country: user.country,
    city: user.city,
    role: roleOf(user),
    adminKind: adminKindOf(user),
    internallyManaged: user.custom_internallyManaged,
    organisations: store.memberships(user._id).map((orguid) => orgs.get(orguid) ?? { orguid, name: orguid, subregion: '', country: '', city: '', members: 0 }),
    access: store.access(user._id).map((r) => {
      const status = effectiveStatus(r, now);
      return { application: r.application, status, requestedBy: r.requestedBy, requestDate: r.requestDate, inviteExpiresAt: r.inviteExpiresAt, updatedAt: r.updatedAt, actions: change ? allowedActions(status) : [] };
    }),
    canDelete: change,
    canChangeAccess: change,
  };
}

function compare(key: SortKey, a: UserRow, b: UserRow): number {
  const text = (row: UserRow): string => {
    switch (key) {
      case 'name': return row.name || row.email;
      case 'email': return row.email;
      case 'organisation': return row.organisations[0]?.name ?? '';
      case 'status': return row.status ?? '';
      case 'country': return row.country;
      case 'city': return row.city;
    }
  };
  const [x, y] = [text(a), text(b)];
  // Empty values last in both directions is not needed: they sort first ascending, last descending.
  return x.localeCompare(y, 'en', { sensitivity: 'base' });
}

async function readJson(req: IncomingMessage): Promise<{ ok: true; body: unknown } | { ok: false; status: number; message: string }> {
  try {
    const text = await readBody(req);
    return { ok: true, body: text.trim() === '' ? {} : JSON.parse(text) };
  } catch (err) {
    return err instanceof BodyTooLarge ? { ok: false, status: 413, message: 'The body is too large' } : { ok: false, status: 400, message: 'The body must be JSON' };
  }
}

const issueField = (issues: readonly v.BaseIssue<unknown>[]): string | undefined => {
  const key = issues[0]?.path?.[0]?.key;
  return typeof key === 'string' ? key : undefined;
};

/** Handles {IDM}/endpoint/kmx-admin/… for an authenticated caller (bearer with fr:idm:*); false for other paths. */
export async function handleAdmin(req: IncomingMessage, res: ServerResponse, url: URL, caller: { sub: string }, deps: AdminDeps): Promise<boolean> {
  if (url.pathname !== ADMIN_BASE && !url.pathname.startsWith(`${ADMIN_BASE}/`)) return false;
  const { store } = deps;
  const now = (deps.now ?? Date.now)();
  const parts = url.pathname.slice(ADMIN_BASE.length).split('/').filter(Boolean).map((p) => decodeURIComponent(p));
  const me = store.get(caller.sub);
  const scope = me ? adminScope(me._id, store.staticRoles(me._id), store.memberships(me._id)) : null;
  if (!me || !scope) {
    sendJson(res, 403, ADMIN_REQUIRED);
    return true;
  }
  const method = req.method ?? 'GET';
  const methodNotAllowed = (allow: string): true => {
    sendJson(res, 405, { code: 405, reason: 'Method Not Allowed', message: `${method} is not supported here` }, { allow });
    return true;
  };

  /** The target user when the caller reaches them; answers 404/403 itself otherwise. */
  const target = (id: string): IdentityUser | undefined => {
    const user = store.get(id);
    if (!user) sendJson(res, 404, notFound('User not found'));
    else if (!reaches(scope, factsOf(store, user))) sendJson(res, 403, NOT_PERMITTED);
    else return user;
    return undefined;
  };

  const [resource, id, sub, subId, ...rest] = parts;
  if (resource === 'organisations' && parts.length === 1) {
    if (method !== 'GET') return methodNotAllowed('GET');
    sendJson(res, 200, { result: visibleOrganisations(store, scope) });
    return true;
  }
  if (resource === 'invitations' && parts.length === 1) {
    if (method !== 'POST') return methodNotAllowed('POST');
    await invite(req, res, deps, me, scope, now);
    return true;
  }
  if (resource === 'users' && parts.length === 1) {
    if (method !== 'GET') return methodNotAllowed('GET');
    list(res, url, store, scope, now);
    return true;
  }
  if (resource === 'users' && id && parts.length === 2) {
    if (method === 'GET') {
      const user = target(id);
      if (user) sendJson(res, 200, userDetail(store, user, scope, now));
      return true;
    }
    if (method === 'DELETE') {
      const user = target(id);
      if (!user) return true;
      if (user._id === me._id) {
        sendJson(res, 409, conflict('You cannot delete your own account here'));
        return true;
      }
      if (!mayChange(scope, factsOf(store, user))) {
        sendJson(res, 403, NOT_EVERY_ORG);
        return true;
      }
      store.delete(user._id);
      await deps.endAccount(user._id);
      sendJson(res, 200, { id: user._id });
      return true;
    }
    return methodNotAllowed('GET, DELETE');
  }
  if (resource === 'users' && id && sub === 'access' && subId && !rest.length) {
    if (method !== 'POST') return methodNotAllowed('POST');
    await accessAction(req, res, url, deps, scope, id, subId, target, now);
    return true;
  }
  if (resource === 'users' && id && sub === 'organisations' && subId && !rest.length) {
    if (method !== 'DELETE') return methodNotAllowed('DELETE');
    const user = target(id);
    if (!user) return true;
    if (!store.memberships(user._id).includes(subId)) {
      sendJson(res, 404, notFound('Membership not found'));
      return true;
    }
    if (!mayRemoveMembership(scope, factsOf(store, user), subId)) {
      sendJson(res, 403, ORG_NOT_PERMITTED);
      return true;
    }
    store.removeMembership(user._id, subId);
    // Removing one's own membership shrinks one's own scope.
    const after = user._id === me._id ? adminScope(me._id, store.staticRoles(me._id), store.memberships(me._id))! : scope;
    sendJson(res, 200, userDetail(store, store.get(user._id)!, after, now));
    return true;
  }
  sendJson(res, 404, notFound('Resource not found'));
  return true;
}

function visibleOrganisations(store: UserStore, scope: AdminScope): Organisation[] {
  return store.organisations().filter((o) => administers(scope, o.orguid));
}

function list(res: ServerResponse, url: URL, store: UserStore, scope: AdminScope, now: number): void {
  const params = Object.fromEntries([...url.searchParams].filter(([, value]) => value !== ''));
  const parsed = v.safeParse(ListQuery, params);
  if (!parsed.success) {
    sendJson(res, 400, badRequest(parsed.issues.map((i) => i.message).join('; ')));
    return;
  }
  const q = parsed.output;
  const orgs = new Map(store.organisations().map((o) => [o.orguid, o]));
  const search = q.search.trim().toLowerCase();
  const country = q.country?.toUpperCase();
  let rows = store.all()
    .filter((user) => reaches(scope, factsOf(store, user)))
    .map((user) => userRow(store, user, orgs, now))
    .filter((row) => !search || row.name.toLowerCase().includes(search) || row.email.toLowerCase().includes(search))
    .filter((row) => !q.orguid || row.organisations.some((o) => o.orguid === q.orguid))
    .filter((row) => !country || row.country.toUpperCase() === country)
    // status and application: one access record matching both (either alone: any record).
    .filter((row) => (!q.status && !q.application) || row.applications.some((a) => (!q.status || a.status === q.status) && (!q.application || a.application === q.application)));
  const descending = q.sort.startsWith('-');
  const key = q.sort.replace(/^-/, '') as SortKey;
  rows = rows.sort((a, b) => (descending ? -1 : 1) * compare(key, a, b) || a.email.localeCompare(b.email));
  const start = (q.page - 1) * q.pageSize;
  sendJson(res, 200, { result: rows.slice(start, start + q.pageSize), totalCount: rows.length, page: q.page, pageSize: q.pageSize });
}

/** The idempotency keys of each user store (in its own database, so they survive a restart). */
const inviteKeys = new WeakMap<UserStore, IdempotencyKeys>();

/**
 * POST …/invitations. With an `Idempotency-Key`, an invitation sent again (a retry after the app
 * gave up waiting) is made once: the repeat gets the first answer (201 and the user), not the
 * 409 "User already exists" the second invitation of the same address would otherwise get.
 */
async function invite(req: IncomingMessage, res: ServerResponse, deps: AdminDeps, me: IdentityUser, scope: AdminScope, now: number): Promise<void> {
  const key = idempotencyKeyOf(req.headers);
  if (key === 'malformed') {
    sendJson(res, 400, badRequest(IDEMPOTENCY_REFUSALS.malformed.message));
    return;
  }
  const read = await readJson(req);
  if (!read.ok) {
    sendJson(res, read.status, badRequest(read.message));
    return;
  }
  if (!key) {
    const answer = inviteAnswer(read.body, deps, me, scope, now);
    sendJson(res, answer.status, answer.body);
    return;
  }
  let keys = inviteKeys.get(deps.store);
  if (!keys) inviteKeys.set(deps.store, (keys = new IdempotencyKeys(deps.store.db)));
  const outcome = await keys.once(`invite:${me._id}`, key, fingerprintOf(JSON.stringify(read.body)), async () => {
    const answer = inviteAnswer(read.body, deps, me, scope, now);
    return { status: answer.status, body: JSON.stringify(answer.body) };
  });
  if (outcome.kind === 'in-progress' || outcome.kind === 'mismatch') {
    const refusal = IDEMPOTENCY_REFUSALS[outcome.kind];
    sendJson(res, refusal.status, { code: refusal.status, reason: outcome.kind === 'mismatch' ? 'Unprocessable Entity' : 'Conflict', message: refusal.message });
    return;
  }
  sendJson(res, outcome.answer.status, JSON.parse(outcome.answer.body));
}

function inviteAnswer(body: unknown, deps: AdminDeps, me: IdentityUser, scope: AdminScope, now: number): { status: number; body: unknown } {
  const { store } = deps;
  const parsed = v.safeParse(Invitation, body);
  if (!parsed.success) return { status: 400, body: badRequest(parsed.issues[0]!.message, issueField(parsed.issues)) };
  const { email, orguid, applications } = parsed.output;
  const org = store.organisation(orguid);
  if (!org) return { status: 400, body: badRequest(`Unknown organisation ${orguid}`, 'orguid') };
  if (!administers(scope, orguid)) return { status: 403, body: ORG_NOT_PERMITTED };
  const existing = store.findByLogin(email)?.user;
  if (existing) return { status: 409, body: conflict('User already exists', { userId: existing._id, permitted: reaches(scope, factsOf(store, existing)) }) };
  const date = new Date(now).toISOString();
  const expires = new Date(now + INVITE_MS).toISOString();
  const records: AccessRecord[] = [...new Set(applications)].map((application) => ({
    application, status: 'invited', requestedBy: me.mail, requestDate: date, inviteExpiresAt: expires, updatedAt: date,
  }));
  const user = store.invite(email, org, records);
  return { status: 201, body: { user: userDetail(store, user, scope, now) } };
}

async function accessAction(
  req: IncomingMessage, res: ServerResponse, url: URL, deps: AdminDeps, scope: AdminScope, id: string, application: string,
  target: (id: string) => IdentityUser | undefined, now: number,
): Promise<void> {
  const { store } = deps;
  const user = target(id);
  if (!user) return;
  const me = store.get(scope.id)!;
  if (user._id === me._id) {
    sendJson(res, 403, OWN_ACCESS);
    return;
  }
  if (!mayChange(scope, factsOf(store, user))) {
    sendJson(res, 403, NOT_EVERY_ORG);
    return;
  }
  if (!(APPLICATIONS as readonly string[]).includes(application)) {
    sendJson(res, 400, badRequest(`Unknown application ${application}; one of ${APPLICATIONS.join(', ')}`, 'application'));
    return;
  }
  const action = v.safeParse(ActionQuery, url.searchParams.get('_action') ?? '');
  if (!action.success) {
    sendJson(res, 400, badRequest(action.issues[0]!.message, '_action'));
    return;
  }
  const read = await readJson(req);
  if (!read.ok) {
    sendJson(res, read.status, badRequest(read.message));
    return;
  }
  let editTo: (typeof EDIT_STATUSES)[number] | undefined;
  if (action.output === 'edit') {
    const body = v.safeParse(EditBody, read.body);
    if (!body.success) {
      sendJson(res, 400, badRequest(body.issues[0]!.message, 'status'));
      return;
    }
    editTo = body.output.status;
  }
  const record = store.access(user._id).find((r) => r.application === application);
  const step = transition(action.output, effectiveStatus(record, now), editTo);
  if (!step.ok) {
    sendJson(res, 409, conflict(step.message));
    return;
  }
  const date = new Date(now).toISOString();
  const next: AccessRecord = step.newInvite
    ? { application, status: step.status, requestedBy: me.mail, requestDate: date, inviteExpiresAt: new Date(now + INVITE_MS).toISOString(), updatedAt: date }
    : action.output === 'add' || action.output === 'grant'
      ? { application, status: step.status, requestedBy: me.mail, requestDate: date, inviteExpiresAt: null, updatedAt: date }
      : { ...record!, status: step.status, updatedAt: date };
  store.putAccess(user._id, next);
  sendJson(res, 200, userDetail(store, store.get(user._id)!, scope, now));
}
