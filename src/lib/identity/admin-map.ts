import type { RawOrganisation, RawUserDetail, RawUserRow } from './admin-schema.ts';

/*
 * Delegated user administration in our terms (spec customer-area §3 user administration record,
 * §4 application access statuses and actions). Values the endpoint may add later (another status,
 * another action) are kept in a known shape: an unrecognised status is `unknown`, an unknown
 * action is dropped, so the screens never offer what they cannot name.
 */

/** The applications an access record is for (ids of the role strings `kmx_int_<application>_<status>`). */
export const APPLICATIONS = ['serviceticketing', 'assetdb', 'artemis', 'direct', 'mfpwm', 'mfpmds', 'lmsefront'] as const;
export type Application = (typeof APPLICATIONS)[number];

/** What an access record shows (inviteexpired is computed by identity management; anything else is unknown). */
export const ACCESS_STATUSES = ['invited', 'inviteexpired', 'pending', 'active', 'inactive', 'declined', 'unknown'] as const;
export type AccessStatus = (typeof ACCESS_STATUSES)[number];

/** The nine access actions (spec §4), in the order the screens offer them. */
export const ACCESS_ACTIONS = ['invite', 'add', 'grant', 'accept', 'edit', 'resend', 'reinvite', 'decline', 'withdraw'] as const;
export type AccessAction = (typeof ACCESS_ACTIONS)[number];

/** The statuses `edit` may set. */
export const EDIT_STATUSES = ['active', 'inactive'] as const;
export type EditStatus = (typeof EDIT_STATUSES)[number];

/** The list's sort keys (a `-` prefix sorts descending). */
export const SORT_KEYS = ['name', 'email', 'organisation', 'status', 'country', 'city'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** Which delegated administration role a user has: internal (Komax) or external (an organisation's own). */
export type AdminKind = 'intern' | 'extern';

export interface Organisation {
  orguid: string;
  name: string;
  subregion: string;
  country: string;
  city: string;
  members: number;
}

export interface UserRow {
  id: string;
  name: string;
  email: string;
  organisations: { orguid: string; name: string }[];
  role: 'admin' | 'user';
  adminKind: AdminKind | null;
  /** An internal account (a Komax employee's): never reached by external administrators. */
  internallyManaged: boolean;
  /** The most recent access record's status and application (null without any record). */
  status: AccessStatus | null;
  application: Application | null;
  country: string;
  city: string;
  applications: { application: Application; status: AccessStatus }[];
}

export interface UserList {
  users: UserRow[];
  totalCount: number;
  page: number;
  pageSize: number;
}

export interface AccessRecord {
  application: Application;
  status: AccessStatus;
  requestedBy: string;
  requestDate: string;
  inviteExpiresAt: string | null;
  updatedAt: string;
  /** The actions identity management allows in this state. */
  actions: AccessAction[];
}

export interface UserDetail {
  id: string;
  firstName: string;
  lastName: string;
  name: string;
  email: string;
  telephone: string;
  company: string;
  country: string;
  city: string;
  role: 'admin' | 'user';
  adminKind: AdminKind | null;
  /** An internal account (a Komax employee's): never reached by external administrators. */
  internallyManaged: boolean;
  organisations: Organisation[];
  access: AccessRecord[];
  canDelete: boolean;
}

const isApplication = (a: string): a is Application => (APPLICATIONS as readonly string[]).includes(a);
export const accessStatusOf = (s: string | null | undefined): AccessStatus => ((ACCESS_STATUSES as readonly string[]).includes(s ?? '') ? s as AccessStatus : 'unknown');
const roleOf = (r: string): 'admin' | 'user' => (r === 'admin' ? 'admin' : 'user');
/** The admin kind; an admin of no recognisable kind counts as internal (the most protected). */
function adminKindOf(role: string, kind: string | null): AdminKind | null {
  if (kind === 'intern' || kind === 'extern') return kind;
  return kind !== null || role === 'admin' ? 'intern' : null;
}

export function mapOrganisation(raw: RawOrganisation): Organisation {
  return { orguid: raw.orguid, name: raw.name || raw.orguid, subregion: raw.subregion ?? '', country: (raw.country ?? '').toUpperCase(), city: raw.city ?? '', members: raw.members };
}

export function mapUserRow(raw: RawUserRow): UserRow {
  return {
    id: raw.id,
    name: raw.name ?? '',
    email: raw.email ?? '',
    organisations: raw.organisations.map((o) => ({ orguid: o.orguid, name: o.name || o.orguid })),
    role: roleOf(raw.role),
    adminKind: adminKindOf(raw.role, raw.adminKind),
    internallyManaged: raw.internallyManaged,
    status: raw.status === null ? null : accessStatusOf(raw.status),
    application: raw.application && isApplication(raw.application) ? raw.application : null,
    country: (raw.country ?? '').toUpperCase(),
    city: raw.city ?? '',
    applications: raw.applications.filter((a) => isApplication(a.application)).map((a) => ({ application: a.application as Application, status: accessStatusOf(a.status) })),
  };
}

export function mapUserDetail(raw: RawUserDetail): UserDetail {
  return {
    id: raw.id,
    firstName: raw.givenName ?? '',
    lastName: raw.sn ?? '',
    name: raw.name || `${raw.givenName ?? ''} ${raw.sn ?? ''}`.trim(),
    email: raw.email ?? '',
    telephone: raw.telephone ?? '',
    company: raw.company ?? '',
    country: (raw.country ?? '').toUpperCase(),
    city: raw.city ?? '',
    role: roleOf(raw.role),
    adminKind: adminKindOf(raw.role, raw.adminKind),
    internallyManaged: raw.internallyManaged,
    organisations: raw.organisations.map(mapOrganisation),
    access: raw.access.filter((a) => isApplication(a.application)).map((a) => ({
      application: a.application as Application,
      status: accessStatusOf(a.status),
      requestedBy: a.requestedBy ?? '',
      requestDate: a.requestDate ?? '',
      inviteExpiresAt: a.inviteExpiresAt ?? null,
      updatedAt: a.updatedAt ?? '',
      actions: a.actions.filter((x): x is AccessAction => (ACCESS_ACTIONS as readonly string[]).includes(x)),
    })),
    canDelete: raw.canDelete,
  };
}
