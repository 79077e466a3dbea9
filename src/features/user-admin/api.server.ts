import type { APIContext, APIRoute } from 'astro';
import * as v from 'valibot';
import { json } from '../../lib/http/json.ts';
import { JSON_TYPE, NO_BODY, readJsonBody } from '../../lib/http/body.ts';
import { endpoint, READ_ONLY, type EndpointLimits } from '../../lib/http/endpoint.ts';
import { callerOf, idempotentAnswer } from '../../lib/idempotency/http.ts';
import { getLogger } from '../../lib/log/index.ts';
import {
  accessAction, deleteUser, getUser, inviteUser, listOrganisations, listUsers, removeMembership, UserAdminError,
} from '../../lib/identity/admin.ts';
import { apiContext } from '../platform/context.ts';
import { requireUser } from '../sign-in/bearer.server.ts';
import { ActionBody, ApplicationParam, IdParam, InvitationBody, ListQuery, OrguidParam } from './schema.ts';

/*
 * The same-origin user administration API (spec customer-area §3, §4, §6, §8). Every handler checks
 * the bearer token first (`requireUser`), then calls identity management's administration
 * endpoint with the administrator's own token: identity management applies the permission rule on
 * every call; we only translate its answers. Never cached.
 *
 * Errors: `{ error, message, messageKey?, detail? }` — 400 our validation or the endpoint's
 * (`detail.field`), 401 token refused, 403 `not-admin` (no delegated admin role) or `forbidden`
 * (user or organisation out of reach; messageKey = the spec's permission message), 404, 409 with the
 * endpoint's detail (existing e-mail: `userId`, `permitted`), 502 identity management down.
 */

export type UserGuard = (context: APIContext) => Promise<{ claims: { sub: string; scope: string[] }; accessToken: string } | Response>;

/** The message the detail page shows for a 403 (spec §6). */
export const NO_PERMISSION_KEY = 'userAdmin.error.noPermission';

const log = getLogger('user-admin');
const MAX_BODY = 8 * 1024;

const badRequest = (message: string, field?: string) => json({ error: 'bad-request', message, ...(field ? { detail: { field } } : {}) }, 400);

function firstIssue(issues: readonly v.BaseIssue<unknown>[]): { message: string; field?: string } {
  const issue = issues[0]!;
  const key = issue.path?.[0]?.key;
  const field = typeof key === 'string' ? key.slice(0, 50) : undefined;
  if (issue.type === 'strict_object' && field && issue.expected === 'never') return { message: `Unknown field: ${field}`, field };
  if (issue.type === 'strict_object' && field === undefined) return { message: 'The body must be a JSON object.' };
  return { message: issue.message, field };
}

async function bodyOf<S extends v.GenericSchema>(request: Request, schema: S): Promise<{ ok: true; value: v.InferOutput<S> } | { ok: false; response: Response }> {
  const body = await readJsonBody(request, MAX_BODY);
  if (body.kind === 'unsupported') return { ok: false, response: json({ error: 'unsupported-media-type', message: 'Send JSON (Content-Type: application/json).' }, 415) };
  if (body.kind === 'too-large') return { ok: false, response: json({ error: 'too-large', message: 'Request body too large.' }, 413) };
  if (body.kind === 'malformed') return { ok: false, response: badRequest('The body is not valid JSON.') };
  if (Array.isArray(body.value)) return { ok: false, response: badRequest('The body must be a JSON object.') };
  const parsed = v.safeParse(schema, body.value);
  if (!parsed.success) {
    const { message, field } = firstIssue(parsed.issues);
    return { ok: false, response: badRequest(message, field) };
  }
  return { ok: true, value: parsed.output };
}

function param<S extends v.GenericSchema>(context: APIContext, name: string, schema: S): { ok: true; value: v.InferOutput<S> } | { ok: false; response: Response } {
  const parsed = v.safeParse(schema, context.params[name] ?? '');
  return parsed.success ? { ok: true, value: parsed.output } : { ok: false, response: badRequest(parsed.issues[0]!.message, name) };
}

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

type Handler = (ctx: { context: APIContext; accessToken: string; config: ReturnType<typeof apiContext>['services']['identity'] }) => Promise<Response>;

/** The handlers for a given guard (the routes use `requireUser`; tests pass their own). */
export function userAdminHandlers(guard: UserGuard) {
  const forAdmin = (operation: string, action: Handler): APIRoute => async (context) => {
    const user = await guard(context);
    if (user instanceof Response) return user;
    try {
      return await action({ context, accessToken: user.accessToken, config: apiContext(context.locals).services.identity });
    } catch (err) {
      return failureResponse(err, operation);
    }
  };

  return {
    /** GET /api/user-admin/organisations → { organisations }. */
    organisations: forAdmin('listOrganisations', async ({ accessToken, config }) => json({ organisations: await listOrganisations(config, accessToken) })),

    /** GET /api/user-admin/users?search=&orguid=&application=&status=&country=&sort=&page=&pageSize= → UserList. */
    users: forAdmin('listUsers', async ({ context, accessToken, config }) => {
      const params = Object.fromEntries([...context.url.searchParams].filter(([k, value]) => value !== '' && k in ListQuery.entries));
      const query = v.safeParse(ListQuery, params);
      if (!query.success) {
        const { message, field } = firstIssue(query.issues);
        return badRequest(message, field);
      }
      return json(await listUsers(config, accessToken, query.output));
    }),

    /** GET /api/user-admin/users/{id} → UserDetail. */
    user: forAdmin('getUser', async ({ context, accessToken, config }) => {
      const id = param(context, 'id', IdParam);
      if (!id.ok) return id.response;
      return json(await getUser(config, accessToken, id.value));
    }),

    /** DELETE /api/user-admin/users/{id} → { id }. */
    deleteUser: forAdmin('deleteUser', async ({ context, accessToken, config }) => {
      const id = param(context, 'id', IdParam);
      if (!id.ok) return id.response;
      await deleteUser(config, accessToken, id.value);
      log.info('user deleted by an administrator');
      return json({ id: id.value });
    }),

    /**
     * POST /api/user-admin/invitations { email, orguid, applications } → 201 UserDetail. Needs an
     * Idempotency-Key (the invite dialog makes one when it opens): the same invitation sent again
     * is made once, and the repeat gets the first answer (lib/idempotency).
     */
    invite: forAdmin('inviteUser', async ({ context, accessToken, config }) => idempotentAnswer(context.request, { scope: `user-admin:invite:${callerOf(accessToken)}` }, async (key) => {
      const body = await bodyOf(context.request, InvitationBody);
      if (!body.ok) return body.response;
      try {
        return json(await inviteUser(config, accessToken, body.value, key), 201);
      } catch (err) {
        return failureResponse(err, 'inviteUser');
      }
    })),

    /** POST /api/user-admin/users/{id}/access/{application} { action, status? } → UserDetail. */
    access: forAdmin('accessAction', async ({ context, accessToken, config }) => {
      const id = param(context, 'id', IdParam);
      if (!id.ok) return id.response;
      const application = param(context, 'application', ApplicationParam);
      if (!application.ok) return application.response;
      const body = await bodyOf(context.request, ActionBody);
      if (!body.ok) return body.response;
      return json(await accessAction(config, accessToken, id.value, application.value, body.value.action, body.value.status));
    }),

    /** DELETE /api/user-admin/users/{id}/organisations/{orguid} → UserDetail. */
    removeMembership: forAdmin('removeMembership', async ({ context, accessToken, config }) => {
      const id = param(context, 'id', IdParam);
      if (!id.ok) return id.response;
      const orguid = param(context, 'orguid', OrguidParam);
      if (!orguid.ok) return orguid.response;
      return json(await removeMembership(config, accessToken, id.value, orguid.value));
    }),
  };
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

const handlers = userAdminHandlers(requireUser);
/** The handlers behind the bearer guard and their limits (src/pages/api/user-admin/* re-export them). */
export const userAdmin = {
  organisations: endpoint(USER_ADMIN_LIMITS.organisations, handlers.organisations),
  users: endpoint(USER_ADMIN_LIMITS.users, handlers.users),
  user: endpoint(USER_ADMIN_LIMITS.user, handlers.user),
  deleteUser: endpoint(USER_ADMIN_LIMITS.deleteUser, handlers.deleteUser),
  invite: endpoint(USER_ADMIN_LIMITS.invite, handlers.invite),
  access: endpoint(USER_ADMIN_LIMITS.access, handlers.access),
  removeMembership: endpoint(USER_ADMIN_LIMITS.removeMembership, handlers.removeMembership),
};
