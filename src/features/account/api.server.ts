import type { APIContext } from 'astro';
import type * as v from 'valibot';
import { json } from '../../lib/http/json.ts';
import { IGNORED_JSON_BODY, JSON_TYPE, NO_BODY } from '../../lib/http/body.ts';
import { endpoint, READ_ONLY, type EndpointLimits } from '../../lib/http/endpoint.ts';
import { getLogger } from '../../lib/log/index.ts';
import {
  changePassword, deleteAccount, getProfile, IdentityManagementError, resetMfa, updateProfile, type PolicyFailure, type Profile,
} from '../../lib/identity/management.ts';
import { apiContext } from '../platform/context.ts';
import { requireUser, type CustomerUser, type UserGuard } from '../sign-in/bearer.server.ts';
import { missingRequired, PasswordBody, ProfileBody } from './schema.ts';

/*
 * The same-origin account API of the customer area (spec customer-area §6: profile, password,
 * MFA reset, account deletion). Every handler checks the bearer access token first (B's
 * `requireUser`), then acts on identity management on the user's behalf with that token: the
 * browser never talks to identity management, and the user can only ever reach their own record.
 * Answers are never cached (`Cache-Control: no-store`).
 */

export type { UserGuard } from '../sign-in/bearer.server.ts';

const log = getLogger('account');
const MAX_BODY = 8 * 1024;

/** The profile as the API answers it. */
export type ProfileResponse = Profile;

/** 422 body: the failed policies (or our own required check), for the form to show per field. */
export interface FailuresResponse {
  failures: PolicyFailure[];
}

/** An identity-management failure as our answer. */
function failureResponse(err: unknown, operation: string): Response {
  if (!(err instanceof IdentityManagementError)) {
    log.error({ err }, `${operation} failed`);
    return json({ error: 'unavailable', message: 'The account service is not available right now.' }, 502);
  }
  switch (err.kind) {
    case 'unauthorized':
      // The token passed our check but identity management refused it (revoked, ended session): the client renews and retries.
      return new Response(JSON.stringify({ error: 'unauthorized', message: 'The access token was refused.' }), {
        status: 401,
        headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'WWW-Authenticate': 'Bearer error="invalid_token"' },
      });
    case 'policy':
      return json({ failures: err.failures.length ? err.failures : [{ field: '', code: 'UNKNOWN_POLICY', params: {} }] } satisfies FailuresResponse, 422);
    case 'reauthentication-failed':
      return json({ failures: [{ field: 'currentPassword', code: 'REAUTHENTICATION_FAILED', params: {} }] } satisfies FailuresResponse, 422);
    case 'internally-managed':
      return json({ error: 'internally-managed', message: 'This account is managed internally: profile and password cannot be changed here.' }, 403);
    case 'forbidden':
      return json({ error: 'forbidden', message: 'Identity management refused the request.' }, 403);
    case 'not-found':
      return json({ error: 'not-found', message: 'The account does not exist (any more).' }, 404);
    default:
      // The reason (an address, an upstream's text) stays in the log.
      log.error(`${operation}: ${err.message}`);
      return json({ error: 'unavailable', message: 'The account service is not available right now.' }, 502);
  }
}

const TEN_MINUTES = 10 * 60_000;
/** The account API's declared limits: JSON bodies of at most 8 KiB; changes limited per client (a person makes a few). */
export const ACCOUNT_LIMITS = {
  getProfile: READ_ONLY,
  patchProfile: { body: { maxBytes: MAX_BODY, types: [JSON_TYPE] }, rateLimit: { limit: 30, windowMs: TEN_MINUTES } },
  postPassword: { body: { maxBytes: MAX_BODY, types: [JSON_TYPE] }, rateLimit: { limit: 20, windowMs: TEN_MINUTES } },
  postMfaReset: { body: IGNORED_JSON_BODY, rateLimit: { limit: 10, windowMs: TEN_MINUTES } },
  deleteAccount: { body: NO_BODY, rateLimit: { limit: 10, windowMs: TEN_MINUTES } },
} satisfies Record<string, EndpointLimits>;

/** The account API's endpoints for a given guard (the routes use B's `requireUser`; tests pass their own). */
export function accountHandlers(requireUser: UserGuard) {
  /** `action` behind its limits, for a signed-in user with its checked body; identity management's failures as our answers. */
  const forUser = <B extends v.GenericSchema | undefined = undefined>(limits: EndpointLimits, operation: string, body: B, action: (ctx: { context: APIContext; sub: string; accessToken: string; body: B extends v.GenericSchema ? v.InferOutput<B> : undefined }) => Promise<Response>) =>
    endpoint<APIContext, CustomerUser, B>(limits, { auth: requireUser, body }, async ({ context, user, body: value }) => {
      try {
        return await action({ context, sub: user.claims.sub, accessToken: user.accessToken, body: value });
      } catch (err) {
        return failureResponse(err, operation);
      }
    });
  const config = (context: APIContext) => apiContext(context.locals).services.identity;

  return {
    /** GET /api/account/profile → 200 Profile. */
    getProfile: forUser(ACCOUNT_LIMITS.getProfile, 'getProfile', undefined, async ({ context, sub, accessToken }) => json(await getProfile(config(context), accessToken, sub) satisfies ProfileResponse)),

    /** PATCH /api/account/profile, JSON with the fields to change → 200 Profile; 422 failures; 403 internal account. */
    patchProfile: forUser(ACCOUNT_LIMITS.patchProfile, 'updateProfile', ProfileBody, async ({ context, sub, accessToken, body }) => {
      const missing = missingRequired(body, 'present');
      if (missing.length) return json({ failures: missing.map((field) => ({ field, code: 'REQUIRED', params: {} })) } satisfies FailuresResponse, 422);
      return json(await updateProfile(config(context), accessToken, sub, body) satisfies ProfileResponse);
    }),

    /** POST /api/account/password, JSON { currentPassword, newPassword } → 204; 422 failures (policy, wrong current password); 403 internal account. */
    postPassword: forUser(ACCOUNT_LIMITS.postPassword, 'changePassword', PasswordBody, async ({ context, sub, accessToken, body }) => {
      await changePassword(config(context), accessToken, sub, body.currentPassword, body.newPassword);
      return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
    }),

    /** POST /api/account/mfa-reset → 200 { mfaDevices: 0 } (internal accounts too). */
    postMfaReset: forUser(ACCOUNT_LIMITS.postMfaReset, 'resetMfa', undefined, async ({ context, sub, accessToken }) => json({ mfaDevices: await resetMfa(config(context), accessToken, sub) })),

    /** DELETE /api/account → 204; the user's sessions end with the account. */
    deleteAccount: forUser(ACCOUNT_LIMITS.deleteAccount, 'deleteAccount', undefined, async ({ context, sub, accessToken }) => {
      await deleteAccount(config(context), accessToken, sub);
      log.info('account deleted');
      return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
    }),
  };
}

/** The account API's endpoints, behind B's bearer guard and their limits (src/pages/api/account/* re-export them). */
export const account = accountHandlers(requireUser);
