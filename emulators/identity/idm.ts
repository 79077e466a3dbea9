// Identity management REST (ForgeRock IDM shape) at /openidm/managed/alpha_user/{id}: the own profile,
// password change with reauthentication and policy validation, MFA reset and account deletion, for a
// bearer access token with the fr:idm:* scope (the same tokens the provider issues).
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as v from 'valibot';
import { ADMIN_BASE, handleAdmin } from './admin.ts';
import { BodyTooLarge, bearerToken, readBody, sendJson } from './http.ts';
import { PROFILE_FIELDS, passwordRequirements, policyError, profileFailures, type FailedPolicyRequirement, type Profile, type ProfileField } from './policy.ts';
import { verifyPassword, type IdentityUser, type UserStore } from './store.ts';

export const IDM_SCOPE = 'fr:idm:*';
const USER_PATH = /^\/openidm\/managed\/alpha_user\/([^/]+)\/?$/;

const UNAUTHORIZED = { code: 401, reason: 'Unauthorized', message: 'Access Denied' };
const FORBIDDEN = { code: 403, reason: 'Forbidden', message: 'Access denied' };
const NOT_FOUND = { code: 404, reason: 'Not Found', message: 'Resource not found' };
const INTERNAL = { code: 403, reason: 'Forbidden', message: 'Internally managed account' };
const REAUTH_FAILED = { code: 403, reason: 'Forbidden', message: 'Reauthentication failed' };
const badRequest = (message: string) => ({ code: 400, reason: 'Bad Request', message });

const PatchOperations = v.pipe(
  v.array(v.object({
    operation: v.picklist(['replace', 'add'], 'operation must be "replace" or "add"'),
    field: v.pipe(v.string('field must be a string'), v.regex(/^\/?\w+$/, 'field must be a JSON pointer such as /givenName')),
    value: v.nullish(v.string('value must be a string'), ''),
  }, 'each operation must be an object { operation, field, value }'), 'the body must be an array of patch operations'),
  v.minLength(1, 'the body must contain at least one patch operation'),
);

export interface IdmDeps {
  store: UserStore;
  /** The verified, still active access token's subject and scopes; null otherwise. */
  authenticate(token: string): Promise<{ sub: string; scope: string[] } | null>;
  /** Ends the sessions and grants of an account (after its deletion). */
  endAccount(accountId: string): Promise<void>;
  /** The clock (ms) of invitation expiry; Date.now by default. */
  now?: () => number;
}

/** What GET answers: the user without its roles (those come with the ID token and userinfo). */
export function managedUser(user: IdentityUser) {
  const { roles: _roles, ...view } = user;
  return view;
}

/** Handles /openidm/…; false when the path is not identity management's. */
export async function handleIdm(req: IncomingMessage, res: ServerResponse, url: URL, deps: IdmDeps): Promise<boolean> {
  if (!url.pathname.startsWith('/openidm/')) return false;
  const match = USER_PATH.exec(url.pathname);
  const admin = url.pathname === ADMIN_BASE || url.pathname.startsWith(`${ADMIN_BASE}/`);
  if (!match && !admin) {
    sendJson(res, 404, NOT_FOUND);
    return true;
  }
  const token = bearerToken(req);
  const caller = token ? await deps.authenticate(token) : null;
  if (!caller || !caller.scope.includes(IDM_SCOPE)) {
    sendJson(res, 401, UNAUTHORIZED, { 'www-authenticate': 'Bearer' });
    return true;
  }
  if (!match) return handleAdmin(req, res, url, caller, deps);
  const id = decodeURIComponent(match[1]!);
  const user = deps.store.get(id);
  if (id !== caller.sub) {
    sendJson(res, user ? 403 : 404, user ? FORBIDDEN : NOT_FOUND);
    return true;
  }
  if (!user) {
    sendJson(res, 404, NOT_FOUND);
    return true;
  }

  switch (req.method) {
    case 'GET':
      sendJson(res, 200, managedUser(user));
      return true;
    case 'PATCH':
      await patch(req, res, user, deps);
      return true;
    case 'POST': {
      const action = url.searchParams.get('_action');
      if (action !== 'resetMfa') {
        sendJson(res, 400, badRequest(`Unsupported action ${action ?? '(none)'}`));
        return true;
      }
      deps.store.update(user._id, { custom_mfaDevices: 0 });
      sendJson(res, 200, { _id: user._id, custom_mfaDevices: 0 });
      return true;
    }
    case 'DELETE': {
      deps.store.delete(user._id);
      await deps.endAccount(user._id);
      sendJson(res, 200, managedUser(user));
      return true;
    }
    default:
      sendJson(res, 405, { code: 405, reason: 'Method Not Allowed', message: `${req.method} is not supported` }, { allow: 'GET, PATCH, POST, DELETE' });
      return true;
  }
}

async function patch(req: IncomingMessage, res: ServerResponse, user: IdentityUser, deps: IdmDeps): Promise<void> {
  let body: unknown;
  try {
    body = JSON.parse(await readBody(req));
  } catch (err) {
    sendJson(res, err instanceof BodyTooLarge ? 413 : 400, badRequest(err instanceof BodyTooLarge ? 'The body is too large' : 'The body must be JSON'));
    return;
  }
  const parsed = v.safeParse(PatchOperations, body);
  if (!parsed.success) {
    sendJson(res, 400, badRequest(parsed.issues.map((i) => i.message).join('; ')));
    return;
  }
  const changes: Partial<Profile> = {};
  let password: string | undefined;
  for (const op of parsed.output) {
    const field = op.field.replace(/^\//, '');
    if (field === 'password') password = op.value;
    else if ((PROFILE_FIELDS as readonly string[]).includes(field)) changes[field as ProfileField] = op.value;
    else {
      sendJson(res, 400, badRequest(`The field /${field} cannot be changed`));
      return;
    }
  }
  if (user.custom_internallyManaged) {
    sendJson(res, 403, INTERNAL);
    return;
  }
  if (password !== undefined) {
    const current = req.headers['x-openidm-reauth-password'];
    const hash = deps.store.passwordHash(user._id);
    if (typeof current !== 'string' || !hash || !(await verifyPassword(current, hash))) {
      sendJson(res, 403, REAUTH_FAILED);
      return;
    }
  }

  const failures: FailedPolicyRequirement[] = profileFailures(changes);
  if (changes.mail !== undefined && changes.mail.toLowerCase() !== user.mail.toLowerCase() && deps.store.mailTaken(changes.mail, user._id)) {
    const mail = failures.find((f) => f.property === 'mail');
    if (mail) mail.policyRequirements.push({ policyRequirement: 'UNIQUE' });
    else failures.push({ property: 'mail', policyRequirements: [{ policyRequirement: 'UNIQUE' }] });
  }
  if (password !== undefined) {
    const next = { ...user, ...changes };
    const requirements = passwordRequirements(password, next);
    if (requirements.length) failures.push({ property: 'password', policyRequirements: requirements });
  }
  if (failures.length) {
    sendJson(res, 403, policyError(failures));
    return;
  }

  const trimmed = Object.fromEntries(Object.entries(changes).map(([k, value]) => [k, value.trim()]));
  const updated = deps.store.update(user._id, trimmed)!;
  if (password !== undefined) await deps.store.setPassword(user._id, password);
  sendJson(res, 200, managedUser(updated));
}
