import * as v from 'valibot';
import { formatIdempotencyKey, IDEMPOTENCY_HEADER } from '../idempotency/key.ts';
import { getLogger } from '../log/index.ts';
import type { ManagementConfig } from './management.ts';
import { idmCall } from './idm-http.ts';
import {
  RawAdminErrorSchema, RawDeletedSchema, RawInvitationSchema, RawOrganisationsSchema, RawUserDetailSchema, RawUserListSchema,
} from './admin-schema.ts';
import {
  mapOrganisation, mapUserDetail, mapUserRow, type AccessAction, type Application, type EditStatus, type Organisation, type UserDetail, type UserList,
} from './admin-map.ts';

/*
 * Delegated user administration (issue 12): the client of identity management's custom endpoint
 * `{IDM}/endpoint/kmx-admin`, always with the signed-in administrator's own access token, so
 * identity management applies the permission rule (spec customer-area §6) to every call; we never
 * hold an administrative credential and never decide on our own who may see whom.
 */

export * from './admin-map.ts';

/** A failed administration call: the HTTP status (undefined when there was no answer), the endpoint's message and detail. */
export class UserAdminError extends Error {
  override name = 'UserAdminError';
  readonly operation: string;
  /** The endpoint's status; undefined when it did not answer; 502 for an answer we cannot read. */
  readonly status: number | undefined;
  /** `detail` of the error answer (`{ field }` on 400, `{ userId, permitted }` on an existing e-mail). */
  readonly detail: Record<string, unknown>;
  constructor(message: string, opts: { operation: string; status?: number; detail?: Record<string, unknown>; cause?: unknown }) {
    super(message, { cause: opts.cause });
    this.operation = opts.operation;
    this.status = opts.status;
    this.detail = opts.detail ?? {};
  }
}

export interface UserListQuery {
  search?: string;
  orguid?: string;
  application?: Application;
  status?: string;
  country?: string;
  /** A sort key, `-` prefixed for descending. */
  sort?: string;
  page?: number;
  pageSize?: number;
}

const log = getLogger('user-admin');

const base = (config: ManagementConfig) => `${config.managementUrl.replace(/\/+$/, '')}/endpoint/kmx-admin`;
const seg = encodeURIComponent;

async function call<S extends v.GenericSchema>(
  config: ManagementConfig, operation: string, path: string, init: { method: string; accessToken: string; body?: unknown; headers?: Record<string, string> }, schema: S,
): Promise<v.InferOutput<S>> {
  return idmCall({ url: `${base(config)}${path}`, operation, timeouts: config.timeouts, log }, init, schema, {
    unreachable: (message, cause) => new UserAdminError(`Identity management unreachable: ${message}`, { operation, cause }),
    rejected: (status, body) => {
      const parsed = v.safeParse(RawAdminErrorSchema, body);
      const raw = parsed.success ? parsed.output : null;
      const message = raw?.message || `Identity management answered ${status}`;
      if (status >= 500) log.error(`${operation}: identity management answered ${status} ${message}`);
      return new UserAdminError(message, { operation, status, detail: raw?.detail ?? {} });
    },
    invalid: (why, _status, cause) => new UserAdminError(`Unexpected answer from identity management: ${why}`, { operation, status: 502, cause }),
  });
}

/** The organisations the administrator administers. */
export async function listOrganisations(config: ManagementConfig, accessToken: string): Promise<Organisation[]> {
  const out = await call(config, 'listOrganisations', '/organisations', { method: 'GET', accessToken }, RawOrganisationsSchema);
  return out.result.map(mapOrganisation);
}

/** One page of the users the administrator reaches. */
export async function listUsers(config: ManagementConfig, accessToken: string, query: UserListQuery = {}): Promise<UserList> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const qs = params.size ? `?${params}` : '';
  const out = await call(config, 'listUsers', `/users${qs}`, { method: 'GET', accessToken }, RawUserListSchema);
  return { users: out.result.map(mapUserRow), totalCount: out.totalCount, page: out.page, pageSize: out.pageSize };
}

/** A user with organisations and access records (403 outside the administrator's reach, 404 unknown). */
export async function getUser(config: ManagementConfig, accessToken: string, id: string): Promise<UserDetail> {
  return mapUserDetail(await call(config, 'getUser', `/users/${seg(id)}`, { method: 'GET', accessToken }, RawUserDetailSchema));
}

/**
 * Invites a new user into an organisation (409 with `detail.userId`/`detail.permitted` when the
 * e-mail exists). With `idempotencyKey`, identity management makes an invitation sent again once
 * and answers the repeat with the first answer.
 */
export async function inviteUser(
  config: ManagementConfig, accessToken: string, invitation: { email: string; orguid: string; applications: Application[] }, idempotencyKey?: string,
): Promise<UserDetail> {
  const headers = idempotencyKey ? { [IDEMPOTENCY_HEADER]: formatIdempotencyKey(idempotencyKey) } : undefined;
  const out = await call(config, 'inviteUser', '/invitations', { method: 'POST', accessToken, body: invitation, headers }, RawInvitationSchema);
  return mapUserDetail(out.user);
}

/** One access action on one application (409 when the current status does not allow it). */
export async function accessAction(
  config: ManagementConfig, accessToken: string, id: string, application: Application, action: AccessAction, status?: EditStatus,
): Promise<UserDetail> {
  const path = `/users/${seg(id)}/access/${seg(application)}?_action=${seg(action)}`;
  const body = action === 'edit' ? { status } : {};
  return mapUserDetail(await call(config, `access:${action}`, path, { method: 'POST', accessToken, body }, RawUserDetailSchema));
}

/** Removes the user's membership of an organisation; answers the user as it is afterwards. */
export async function removeMembership(config: ManagementConfig, accessToken: string, id: string, orguid: string): Promise<UserDetail> {
  return mapUserDetail(await call(config, 'removeMembership', `/users/${seg(id)}/organisations/${seg(orguid)}`, { method: 'DELETE', accessToken }, RawUserDetailSchema));
}

/** Deletes a user (not oneself: 409). */
export async function deleteUser(config: ManagementConfig, accessToken: string, id: string): Promise<void> {
  await call(config, 'deleteUser', `/users/${seg(id)}`, { method: 'DELETE', accessToken }, RawDeletedSchema);
}
