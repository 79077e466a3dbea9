import * as v from 'valibot';
import type { UpstreamTimeouts } from '../http/timeouts.ts';
import { idmCall } from './idm-http.ts';
import { getLogger } from '../log/index.ts';
import { RawErrorSchema, RawMfaResetSchema, RawUserSchema } from './management-schema.ts';
import { mapUser, patchOf, policyFailuresOf, type PolicyFailure, type Profile, type ProfileChanges } from './management-map.ts';

/*
 * Identity management (ForgeRock IDM REST, `…/openidm`): the only code that talks to it. Every
 * call acts on the signed-in user's own record with the user's access token (scope `fr:idm:*`),
 * so the service itself decides what the user may do; we never hold an administrative credential.
 */

export type { PolicyFailure, Profile, ProfileChanges, ProfileField } from './management-map.ts';
export { PROFILE_FIELDS } from './management-map.ts';

/** Where identity management lives; `IdentityConfig` (services.identity) fits. */
export interface ManagementConfig {
  /** Base URL without a trailing slash, e.g. `http://localhost:4102/openidm`. */
  managementUrl: string;
  timeouts?: UpstreamTimeouts;
}

/**
 * Why a call failed:
 * - `unauthorized`: the token is missing, invalid, expired or revoked (401);
 * - `forbidden`: another user's record, or refused for a reason we do not know (403);
 * - `internally-managed`: an internal employee's profile or password (403);
 * - `reauthentication-failed`: the current password is wrong (403);
 * - `policy`: the values break a policy; `failures` says which (403 "Failed policy validation");
 * - `not-found`: no such user (404), e.g. deleted meanwhile;
 * - `rejected`: another 4xx;
 * - `unavailable`: no answer, a timeout or a 5xx;
 * - `invalid-answer`: a success whose body is not what identity management answers.
 */
export type ManagementFailure = 'unauthorized' | 'forbidden' | 'internally-managed' | 'reauthentication-failed' | 'policy' | 'not-found' | 'rejected' | 'unavailable' | 'invalid-answer';

/** A failed identity-management call; keeps the operation, the HTTP status, the failed policies and the cause. */
export class IdentityManagementError extends Error {
  override name = 'IdentityManagementError';
  readonly operation: string;
  readonly status: number | undefined;
  readonly kind: ManagementFailure;
  readonly failures: PolicyFailure[];
  constructor(message: string, opts: { operation: string; kind: ManagementFailure; status?: number; failures?: PolicyFailure[]; cause?: unknown }) {
    super(message, { cause: opts.cause });
    this.operation = opts.operation;
    this.kind = opts.kind;
    this.status = opts.status;
    this.failures = opts.failures ?? [];
  }
}

const log = getLogger('identity-management');

const userUrl = (config: ManagementConfig, sub: string) => `${config.managementUrl.replace(/\/+$/, '')}/managed/alpha_user/${encodeURIComponent(sub)}`;

/** What a non-2xx answer means (see {@link ManagementFailure}). */
function failureOf(status: number, raw: v.InferOutput<typeof RawErrorSchema> | null): { kind: ManagementFailure; failures: PolicyFailure[] } {
  const message = raw?.message ?? '';
  const failures = raw ? policyFailuresOf(raw) : [];
  if (status === 401) return { kind: 'unauthorized', failures: [] };
  if (status === 403) {
    if (failures.length > 0 || /failed policy validation/i.test(message)) return { kind: 'policy', failures };
    if (/internally managed/i.test(message)) return { kind: 'internally-managed', failures: [] };
    if (/reauthentication failed/i.test(message)) return { kind: 'reauthentication-failed', failures: [] };
    return { kind: 'forbidden', failures: [] };
  }
  if (status === 404) return { kind: 'not-found', failures: [] };
  if (status >= 500) return { kind: 'unavailable', failures: [] };
  return { kind: 'rejected', failures: [] };
}

/** One call: JSON in and out, the user's token, timeouts; a failure becomes an IdentityManagementError. */
async function call<S extends v.GenericSchema>(
  config: ManagementConfig,
  operation: string,
  url: string,
  init: { method: string; accessToken: string; body?: unknown; headers?: Record<string, string> },
  schema: S,
): Promise<v.InferOutput<S>> {
  return idmCall({ url, operation, timeouts: config.timeouts, log }, init, schema, {
    unreachable: (message, cause) => new IdentityManagementError(`Identity management unreachable: ${message}`, { operation, kind: 'unavailable', cause }),
    rejected: (status, body) => {
      const parsed = v.safeParse(RawErrorSchema, body);
      const raw = parsed.success ? parsed.output : null;
      const { kind, failures } = failureOf(status, raw);
      const message = `Identity management answered ${status}${raw?.message ? `: ${raw.message}` : ''}`;
      if (kind === 'unavailable') log.error(`${operation}: ${message}`);
      return new IdentityManagementError(message, { operation, kind, status, failures });
    },
    invalid: (why, status, cause) => new IdentityManagementError(`Unexpected answer from identity management: ${why}`, { operation, kind: 'invalid-answer', status, cause }),
  });
}

/** The user's own profile. */
export async function getProfile(config: ManagementConfig, accessToken: string, sub: string): Promise<Profile> {
  return mapUser(await call(config, 'getProfile', userUrl(config, sub), { method: 'GET', accessToken }, RawUserSchema));
}

/** Changes the given profile fields; answers the profile as stored. */
export async function updateProfile(config: ManagementConfig, accessToken: string, sub: string, changes: ProfileChanges): Promise<Profile> {
  const patch = patchOf(changes);
  if (patch.length === 0) return getProfile(config, accessToken, sub);
  return mapUser(await call(config, 'updateProfile', userUrl(config, sub), { method: 'PATCH', accessToken, body: patch }, RawUserSchema));
}

/** Changes the password; identity management checks the current one (reauthentication) and the policy. */
export async function changePassword(config: ManagementConfig, accessToken: string, sub: string, currentPassword: string, newPassword: string): Promise<void> {
  await call(config, 'changePassword', userUrl(config, sub), {
    method: 'PATCH',
    accessToken,
    body: [{ operation: 'replace', field: '/password', value: newPassword }],
    headers: { 'x-openidm-reauth-password': currentPassword },
  }, v.unknown());
}

/** Removes the user's multi-factor devices (they register a new one at the next sign-in); answers how many remain (0). */
export async function resetMfa(config: ManagementConfig, accessToken: string, sub: string): Promise<number> {
  const out = await call(config, 'resetMfa', `${userUrl(config, sub)}?_action=resetMfa`, { method: 'POST', accessToken, body: {} }, RawMfaResetSchema);
  return out.custom_mfaDevices;
}

/** Deletes the user's account; their sessions and grants end with it. */
export async function deleteAccount(config: ManagementConfig, accessToken: string, sub: string): Promise<void> {
  await call(config, 'deleteAccount', userUrl(config, sub), { method: 'DELETE', accessToken }, v.unknown());
}
