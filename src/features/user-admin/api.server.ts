import type { APIContext } from 'astro';
import type * as v from 'valibot';
import { json } from '../../lib/http/json.ts';
import { JSON_TYPE, NO_BODY } from '../../lib/http/body.ts';
import { readInput, type CheckedInput } from '../../lib/http/input.ts';
import { endpoint, READ_ONLY, type Declaration, type EndpointLimits } from '../../lib/http/endpoint.ts';
import { idempotentAnswer } from '../../lib/idempotency/http.ts';
import { getLogger } from '../../lib/log/index.ts';
import {
  accessAction, deleteUser, getUser, inviteUser, listOrganisations, listUsers, removeMembership, UserAdminError, type UserDetail,
} from '../../lib/identity/admin.ts';
import type { ManagementConfig } from '../../lib/identity/management.ts';
import { apiContext } from '../platform/context.ts';
import { requireRoles, type CustomerUser, type UserGuard } from '../sign-in/bearer.server.ts';
import { DELEGATED_ADMIN_EXTERNAL_ROLE, DELEGATED_ADMIN_INTERNAL_ROLE } from '../../lib/identity/user.ts';
import { administers, callerOf, decide, permissionsOf, reach, targetOf, withPermissions, type Caller, type Decision, type Denial } from './policy.ts';
import { ActionBody, ApplicationParam, IdParam, InvitationBody, ListQuery, OrguidParam } from './schema.ts';

/*
 * The same-origin user administration API (spec customer-area §3, §4, §6, §8). Every handler checks
 * the bearer token and a delegated admin role first (`requireAdmin`), then calls identity management's administration
 * endpoint with the administrator's own token. Identity management applies the permission rule on
 * every call, and so do we (issue 28): a handler that reads or changes a user first loads the
 * administrator's own detail and the user's, asks policy.ts, and refuses before forwarding
 * anything; answers carry only the actions the rule allows. Never cached.
 *
 * Errors: `{ error, message, messageKey?, detail? }` — 400 our validation or the endpoint's
 * (`detail.field`), 401 token refused, 403 `not-admin` (no delegated admin role) or `forbidden`
 * (user or organisation out of reach; messageKey = the spec's permission message), 404, 409 with the
 * endpoint's detail (existing e-mail: `userId`, `permitted`), 502 identity management down.
 */

export type { UserGuard } from '../sign-in/bearer.server.ts';

/** The message the detail page shows for a 403 (spec §6). */
export const NO_PERMISSION_KEY = 'userAdmin.error.noPermission';

const log = getLogger('user-admin');
const MAX_BODY = 8 * 1024;

/** An identity-management failure as our answer. */
export function failureResponse(err: unknown, operation: string): Response {
  if (!(err instanceof UserAdminError)) {
    log.error({ err }, `${operation} failed`);
    return json({ error: 'unavailable', message: 'User administration is not available right now.' }, 502);
  }
  const { status, message, detail } = err;
  switch (status) {
    case 400:
      return json({ error: 'bad-request', message, detail }, 400);
    case 401: {
      const res = json({ error: 'unauthorized', message: 'The access token was refused.' }, 401);
      res.headers.set('WWW-Authenticate', 'Bearer error="invalid_token"');
      return res;
    }
    case 403:
      return /delegated admin role required/i.test(message)
        ? json({ error: 'not-admin', message, messageKey: 'userAdmin.noAccess.title' }, 403)
        : json({ error: 'forbidden', message, messageKey: NO_PERMISSION_KEY }, 403);
    case 404:
      return json({ error: 'not-found', message }, 404);
    case 409:
      return json({ error: 'conflict', message, detail }, 409);
    default:
      // The reason (an address, the endpoint's own text) stays in the log.
      log.error(`${operation}: ${message} (${status ?? 'no answer'})`);
      return json({ error: 'unavailable', message: 'User administration is not available right now.' }, 502);
  }
}

type Schemas = Record<string, v.GenericSchema>;
/** What an action receives: the checked input, and the administrator's token, subject and identity management. */
type AdminInput<B, P extends Schemas, Q> = CheckedInput<APIContext, CustomerUser, B, P, Q> & { accessToken: string; sub: string; config: ManagementConfig };

const DENIAL_MESSAGES: Record<Denial, string> = {
  'internal-account': 'Not permitted for this user',
  'admin-of-equal-or-higher-level': 'Not permitted for this user',
  'no-shared-organisation': 'Not permitted for this user',
  'own-account': 'You cannot change your own application access or delete yourself here',
  'other-organisations': 'The user belongs to organisations you do not administer',
  'not-a-member': 'Membership not found',
  'organisation-not-administered': 'Not permitted for this organisation',
};

/** The answer to a refused request: the spec's permission message (404 for a membership that does not exist). */
function refused(decision: Extract<Decision, { allowed: false }>, operation: string): Response {
  log.info(`${operation} refused: ${decision.reason}`);
  const message = DENIAL_MESSAGES[decision.reason];
  return decision.reason === 'not-a-member'
    ? json({ error: 'not-found', message }, 404)
    : json({ error: 'forbidden', message, messageKey: NO_PERMISSION_KEY }, 403);
}

/** The administrator as identity management knows them (their own detail: admin kind and organisations). */
async function loadCaller(config: ManagementConfig, accessToken: string, sub: string): Promise<{ caller: Caller; self: UserDetail }> {
  const self = await getUser(config, accessToken, sub);
  const caller = callerOf(self);
  if (!caller) throw new UserAdminError('Delegated admin role required', { operation: 'getUser', status: 403 });
  return { caller, self };
}

/** The administrator and the user acted on (one call when they are the same). */
async function loadBoth(config: ManagementConfig, accessToken: string, sub: string, id: string): Promise<{ caller: Caller; user: UserDetail }> {
  if (id === sub) {
    const { caller, self } = await loadCaller(config, accessToken, sub);
    return { caller, user: self };
  }
  const [{ caller }, user] = await Promise.all([loadCaller(config, accessToken, sub), getUser(config, accessToken, id)]);
  return { caller, user };
}

/** A user as we answer it after a change (the administrator's own organisations may have changed with it). */
function answerAfter(caller: Caller, user: UserDetail): Response {
  const now = user.id === caller.id ? { ...caller, organisations: user.organisations.map((o) => o.orguid) } : caller;
  return json(withPermissions(user, permissionsOf(now, targetOf(user))));
}

const TEN_MINUTES = 10 * 60_000;
/** The declared limits: JSON bodies of at most 8 KiB; changes limited per client (an administrator handles a few users a minute). */
export const USER_ADMIN_LIMITS = {
  organisations: READ_ONLY,
  users: READ_ONLY,
  user: READ_ONLY,
  deleteUser: { body: NO_BODY, rateLimit: { limit: 60, windowMs: TEN_MINUTES } },
  invite: { body: { maxBytes: MAX_BODY, types: [JSON_TYPE] }, rateLimit: { limit: 60, windowMs: TEN_MINUTES } },
  access: { body: { maxBytes: MAX_BODY, types: [JSON_TYPE] }, rateLimit: { limit: 120, windowMs: TEN_MINUTES } },
  removeMembership: { body: NO_BODY, rateLimit: { limit: 60, windowMs: TEN_MINUTES } },
} satisfies Record<string, EndpointLimits>;

/** Identity management's operation behind each endpoint (in the log). */
const OPERATIONS = {
  organisations: 'listOrganisations', users: 'listUsers', user: 'getUser', deleteUser: 'deleteUser', invite: 'inviteUser', access: 'accessAction', removeMembership: 'removeMembership',
} as const satisfies Record<keyof typeof USER_ADMIN_LIMITS, string>;

/** The endpoints for a given guard (the routes use `requireUser`; tests pass their own). */
export function userAdminHandlers(guard: UserGuard) {
  /** `action` behind its limits, the guard and its input checks; identity management's failures as our answers. */
  const forAdmin = <B extends v.GenericSchema | undefined = undefined, P extends Schemas = Record<never, never>, Q extends v.GenericSchema | undefined = undefined>(
    operation: keyof typeof USER_ADMIN_LIMITS, rules: Omit<Declaration<APIContext, CustomerUser, B, P, Q>, 'auth'>, action: (input: AdminInput<B, P, Q>) => Promise<Response>,
  ) => endpoint<APIContext, CustomerUser, B, P, Q>(USER_ADMIN_LIMITS[operation], { ...rules, auth: guard }, async (input) => {
    try {
      return await action({ ...input, accessToken: input.user.accessToken, sub: input.user.claims.sub, config: apiContext(input.context.locals).services.identity });
    } catch (err) {
      return failureResponse(err, OPERATIONS[operation]);
    }
  });

  return {
    /** GET /api/user-admin/organisations → { organisations }. */
    organisations: forAdmin('organisations', {}, async ({ accessToken, config }) => json({ organisations: await listOrganisations(config, accessToken) })),

    /** GET /api/user-admin/users?search=&orguid=&application=&status=&country=&sort=&page=&pageSize= → UserList. */
    users: forAdmin('users', { query: ListQuery }, async ({ query, accessToken, sub, config }) => {
      const [{ caller }, list] = await Promise.all([loadCaller(config, accessToken, sub), listUsers(config, accessToken, query)]);
      // Identity management lists only whom the administrator reaches; a row it should not have sent is dropped (and not counted).
      const rows = list.users.filter((row) => reach(caller, targetOf(row)).allowed);
      if (rows.length < list.users.length) log.warn(`listUsers: identity management listed ${list.users.length - rows.length} users out of reach`);
      const users = rows.map(({ adminKind: _kind, internallyManaged: _internal, ...row }) => row);
      return json({ ...list, users, totalCount: Math.max(users.length, list.totalCount - (list.users.length - rows.length)) });
    }),

    /** GET /api/user-admin/users/{id} → UserDetail. */
    user: forAdmin('user', { params: { id: IdParam } }, async ({ params: { id }, accessToken, sub, config }) => {
      const { caller, user } = await loadBoth(config, accessToken, sub, id);
      const decision = decide(caller, targetOf(user), { kind: 'view' });
      if (!decision.allowed) return refused(decision, 'getUser');
      return json(withPermissions(user, permissionsOf(caller, targetOf(user))));
    }),

    /** DELETE /api/user-admin/users/{id} → { id }. */
    deleteUser: forAdmin('deleteUser', { params: { id: IdParam } }, async ({ params: { id }, accessToken, sub, config }) => {
      const { caller, user } = await loadBoth(config, accessToken, sub, id);
      const decision = decide(caller, targetOf(user), { kind: 'delete' });
      if (!decision.allowed) return refused(decision, 'deleteUser');
      await deleteUser(config, accessToken, id);
      log.info('user deleted by an administrator');
      return json({ id });
    }),

    /**
     * POST /api/user-admin/invitations { email, orguid, applications } → 201 UserDetail, into an
     * organisation the caller administers. Needs an Idempotency-Key (the invite dialog makes one
     * when it opens): the same invitation sent again is made once, and the repeat gets the first
     * answer (lib/idempotency).
     */
    // The body is read inside: a repeated key gets the first answer before anything else is checked.
    invite: forAdmin('invite', {}, async ({ context, accessToken, sub, config }) => idempotentAnswer(context.request, { scope: `user-admin:invite:${sub}` }, async (key) => {
      const body = await readInput(context.request, InvitationBody, MAX_BODY);
      if (!body.ok) return body.response;
      try {
        const { caller } = await loadCaller(config, accessToken, sub);
        if (!administers(caller, body.value.orguid)) return refused({ allowed: false, reason: 'organisation-not-administered' }, 'inviteUser');
        const user = await inviteUser(config, accessToken, body.value, key);
        return json(withPermissions(user, permissionsOf(caller, targetOf(user))), 201);
      } catch (err) {
        return failureResponse(err, 'inviteUser');
      }
    })),

    /** POST /api/user-admin/users/{id}/access/{application} { action, status? } → UserDetail. */
    access: forAdmin('access', { params: { id: IdParam, application: ApplicationParam }, body: ActionBody }, async ({ params: { id, application }, body, accessToken, sub, config }) => {
      const { caller, user } = await loadBoth(config, accessToken, sub, id);
      const decision = decide(caller, targetOf(user), { kind: 'change-access' });
      if (!decision.allowed) return refused(decision, 'accessAction');
      return answerAfter(caller, await accessAction(config, accessToken, id, application, body.action, body.status));
    }),

    /** DELETE /api/user-admin/users/{id}/organisations/{orguid} → UserDetail. */
    removeMembership: forAdmin('removeMembership', { params: { id: IdParam, orguid: OrguidParam } }, async ({ params: { id, orguid }, accessToken, sub, config }) => {
      const { caller, user } = await loadBoth(config, accessToken, sub, id);
      const decision = decide(caller, targetOf(user), { kind: 'remove-membership', orguid });
      if (!decision.allowed) return refused(decision, 'removeMembership');
      return answerAfter(caller, await removeMembership(config, accessToken, id, orguid));
    }),
  };
}


/** The answer to a signed-in caller without a delegated admin role (the islands show the spec's no-access page). */
const NOT_ADMIN = { error: 'not-admin', message: 'Delegated admin role required', messageKey: 'userAdmin.noAccess.title' } as const;

/**
 * The guard of every endpoint: a signed-in caller holding either delegated admin role (spec §6), in
 * the provider's user info; refused before its input is read. Identity management's own record of
 * the administrator (their admin kind and organisations) still decides each action (loadCaller).
 */
export const requireAdmin: UserGuard = async (context) => {
  const caller = await requireRoles([DELEGATED_ADMIN_INTERNAL_ROLE, DELEGATED_ADMIN_EXTERNAL_ROLE])(context);
  return caller instanceof Response && caller.status === 403 ? json(NOT_ADMIN, 403) : caller;
};

/** The endpoints behind the admin guard and their limits (src/pages/api/user-admin/* re-export them). */
export const userAdmin = userAdminHandlers(requireAdmin);
