/**
 * The authenticated user of spec customer-area §3, filled from the identity provider's user info
 * (pure: the server may use the type too).
 */
export interface AuthenticatedUser {
  id: string;
  firstName: string;
  lastName: string;
  fullName: string;
  /** First letters of first and last name, uppercase (`CC` for Claire Customer). */
  initials: string;
  email: string;
  roles: string[];
  /** True once filled from the user info. */
  populated: boolean;
  isDelegatedAdminInternal: boolean;
  isDelegatedAdminExternal: boolean;
}

/** The roles that make a user a delegated administrator (spec §6). */
export const DELEGATED_ADMIN_INTERNAL_ROLE = 'kmx_delegatedadmin_intern';
export const DELEGATED_ADMIN_EXTERNAL_ROLE = 'kmx_delegatedadmin_extern';

/** The user info fields the app reads (OIDC standard claims plus `roles`). */
export interface UserInfoClaims {
  sub?: unknown;
  name?: unknown;
  given_name?: unknown;
  family_name?: unknown;
  email?: unknown;
  roles?: unknown;
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/**
 * Initials: the first letter of the first and of the last name, uppercase; a missing name adds nothing.
 * @example initialsOf('claire', 'Customer') // 'CC'
 */
export function initialsOf(firstName: string, lastName: string): string {
  const first = (s: string) => Array.from(s.trim())[0] ?? '';
  return `${first(firstName)}${first(lastName)}`.toLocaleUpperCase();
}

/** The authenticated user from a user info answer; `sub` is required. */
export function userFromUserInfo(claims: UserInfoClaims): AuthenticatedUser {
  const id = text(claims.sub);
  if (!id) throw new Error('User info has no subject');
  const firstName = text(claims.given_name);
  const lastName = text(claims.family_name);
  const roles = Array.isArray(claims.roles) ? claims.roles.filter((r): r is string => typeof r === 'string') : [];
  return {
    id,
    firstName,
    lastName,
    fullName: text(claims.name) || [firstName, lastName].filter(Boolean).join(' '),
    initials: initialsOf(firstName, lastName),
    email: text(claims.email),
    roles,
    populated: true,
    isDelegatedAdminInternal: roles.includes(DELEGATED_ADMIN_INTERNAL_ROLE),
    isDelegatedAdminExternal: roles.includes(DELEGATED_ADMIN_EXTERNAL_ROLE),
  };
}

/**
 * What the header's user menu may know of the signed-in user on every page: names and initials,
 * nothing secret (no token, e-mail or roles).
 */
export interface SignedInRecord {
  initials: string;
  fullName: string;
}

export function signedInRecord(user: AuthenticatedUser): SignedInRecord {
  return { initials: user.initials, fullName: user.fullName };
}

/** Reads a stored signed-in record; anything else is null. */
export function parseSignedInRecord(raw: string | null): SignedInRecord | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<SignedInRecord> | null;
    return v && typeof v.initials === 'string' && typeof v.fullName === 'string' ? { initials: v.initials, fullName: v.fullName } : null;
  } catch {
    return null;
  }
}
