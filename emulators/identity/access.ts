// Delegated user administration, the pure rules (issue 12): application access statuses, the
// action/state table, the roles derived from access records, and who may administer whom.
// No I/O here: the store and the REST endpoint (admin.ts) apply these rules.

/** The applications an access record is for (the <application> of kmx_int_<application>_<status>). */
export const APPLICATIONS = ['serviceticketing', 'assetdb', 'artemis', 'direct', 'mfpwm', 'mfpmds', 'lmsefront'] as const;
export type Application = (typeof APPLICATIONS)[number];

/** The statuses an access record stores. */
export const STORED_STATUSES = ['invited', 'pending', 'active', 'inactive', 'declined'] as const;
export type StoredStatus = (typeof STORED_STATUSES)[number];
/** What a record shows: `inviteexpired` is computed (invited and past inviteExpiresAt), `unknown` is anything unrecognised. */
export const EFFECTIVE_STATUSES = [...STORED_STATUSES, 'inviteexpired', 'unknown'] as const;
export type EffectiveStatus = (typeof EFFECTIVE_STATUSES)[number];
/** The "status" of an application the user has no record for (409 messages say `none`). */
export const NO_RECORD = 'none';
export type ActionFrom = EffectiveStatus | typeof NO_RECORD;

export const ACTIONS = ['invite', 'add', 'grant', 'accept', 'edit', 'resend', 'reinvite', 'decline', 'withdraw'] as const;
export type Action = (typeof ACTIONS)[number];

/** An invitation is valid for 7 days. */
export const INVITE_DAYS = 7;
export const INVITE_MS = INVITE_DAYS * 24 * 3600 * 1000;

export const ROLE_INTERN = 'kmx_delegatedadmin_intern';
export const ROLE_EXTERN = 'kmx_delegatedadmin_extern';
/** The roles a user has of their own (not derived from an access record). */
export const STATIC_ROLES = [ROLE_EXTERN, ROLE_INTERN, 'kmx_artemis_onpremuser'] as const;

/** The action/state table: the effective statuses each action starts from. */
export const ACTION_FROM: Readonly<Record<Action, readonly ActionFrom[]>> = {
  invite: [NO_RECORD],
  add: [NO_RECORD],
  grant: ['inactive', 'declined'],
  accept: ['pending'],
  edit: ['active', 'inactive'],
  resend: ['invited'],
  reinvite: ['inviteexpired'],
  decline: ['pending', 'invited'],
  withdraw: ['active', 'invited'],
};

/** The statuses `edit` may set. */
export const EDIT_STATUSES = ['active', 'inactive'] as const;
export type EditStatus = (typeof EDIT_STATUSES)[number];

export interface AccessState {
  status: string;
  /** ISO date; only meaningful while invited. */
  inviteExpiresAt: string | null;
}

/** The status a record shows at `now` (ms). */
export function effectiveStatus(record: AccessState | undefined, now: number): ActionFrom {
  if (!record) return NO_RECORD;
  if (!(STORED_STATUSES as readonly string[]).includes(record.status)) return 'unknown';
  if (record.status === 'invited' && record.inviteExpiresAt && Date.parse(record.inviteExpiresAt) < now) return 'inviteexpired';
  return record.status as StoredStatus;
}

/** The actions allowed on a record in this status, in table order. */
export function allowedActions(from: ActionFrom): Action[] {
  return ACTIONS.filter((action) => ACTION_FROM[action].includes(from));
}

export type Transition =
  | { ok: true; status: StoredStatus; newInvite: boolean }
  | { ok: false; message: string };

/** What `action` does from `from` (the given status for `edit`): the stored status after it, or why not. */
export function transition(action: Action, from: ActionFrom, editTo?: EditStatus): Transition {
  if (!ACTION_FROM[action].includes(from)) return { ok: false, message: `Action ${action} is not allowed when access is ${from}` };
  switch (action) {
    case 'invite':
    case 'resend':
    case 'reinvite':
      return { ok: true, status: 'invited', newInvite: true };
    case 'add':
    case 'grant':
    case 'accept':
      return { ok: true, status: 'active', newInvite: false };
    case 'edit':
      if (!editTo) return { ok: false, message: 'edit needs a status (active or inactive)' };
      return { ok: true, status: editTo, newInvite: false };
    case 'decline':
      return { ok: true, status: 'declined', newInvite: false };
    case 'withdraw':
      return { ok: true, status: 'inactive', newInvite: false };
  }
}

/** The effective statuses that give a role kmx_int_<application>_<status>. */
const ROLE_STATUSES: readonly ActionFrom[] = ['active', 'pending', 'invited', 'inviteexpired'];

/**
 * The order of a user's roles (the one the demo users always had): the delegated-admin roles, then per
 * application serviceticketing, assetdb, artemis (with kmx_artemis_onpremuser after it), direct,
 * lmsefront, mfpwm, mfpmds; anything else last.
 */
const ROLE_ORDER = [ROLE_EXTERN, ROLE_INTERN, 'serviceticketing', 'assetdb', 'artemis', 'kmx_artemis_onpremuser', 'direct', 'lmsefront', 'mfpwm', 'mfpmds'];
const roleRank = (key: string) => {
  const i = ROLE_ORDER.indexOf(key);
  return i < 0 ? ROLE_ORDER.length : i;
};

/**
 * A user's roles: their static roles and kmx_int_<application>_<status> for each access record that is
 * active, pending, invited or inviteexpired (inactive, declined and unknown give none), in ROLE_ORDER.
 */
export function derivedRoles(staticRoles: readonly string[], records: readonly (AccessState & { application: string })[], now: number): string[] {
  const derived = records
    .map((r) => ({ application: r.application, status: effectiveStatus(r, now) }))
    .filter((r) => ROLE_STATUSES.includes(r.status))
    .map((r) => ({ key: r.application, role: `kmx_int_${r.application}_${r.status}` }));
  return [...staticRoles.map((role) => ({ key: role, role })), ...derived]
    .map((entry, index) => ({ ...entry, index }))
    .sort((a, b) => roleRank(a.key) - roleRank(b.key) || a.index - b.index)
    .map((entry) => entry.role);
}

/** A seed or legacy role kmx_int_<application>_<status> as an access record; undefined for a static role. */
export function roleAsAccess(role: string): { application: string; status: string } | undefined {
  const match = /^kmx_int_([a-z0-9]+)_([a-z]+)$/.exec(role);
  return match ? { application: match[1]!, status: match[2]! } : undefined;
}

/**
 * Who administers whom. An internal admin (kmx_delegatedadmin_intern) administers every
 * organisation, an external one (kmx_delegatedadmin_extern) the organisations they are a member of.
 */
export type AdminScope =
  | { kind: 'intern'; id: string }
  | { kind: 'extern'; id: string; orguids: ReadonlySet<string> };

/** What the permission rule needs to know about a target user. */
export interface TargetFacts {
  id: string;
  /** Static roles (kmx_delegatedadmin_*). */
  roles: readonly string[];
  internallyManaged: boolean;
  memberships: readonly string[];
}

/** The caller's administration scope from their id, static roles and memberships; null without a delegated admin role. */
export function adminScope(id: string, roles: readonly string[], memberships: readonly string[]): AdminScope | null {
  if (roles.includes(ROLE_INTERN)) return { kind: 'intern', id };
  if (roles.includes(ROLE_EXTERN)) return { kind: 'extern', id, orguids: new Set(memberships) };
  return null;
}

/** A user's administrator level: 2 internal admin, 1 external admin, 0 anybody else. */
export function adminLevel(roles: readonly string[]): 0 | 1 | 2 {
  return roles.includes(ROLE_INTERN) ? 2 : roles.includes(ROLE_EXTERN) ? 1 : 0;
}

/** Whether the scope administers this organisation (invitations into it, removing memberships of it). */
export function administers(scope: AdminScope, orguid: string): boolean {
  return scope.kind === 'intern' || scope.orguids.has(orguid);
}

/**
 * Whether the scope reaches (sees, may act on) the target at all. Oneself always; otherwise never
 * an administrator of the caller's level or above, and an external admin never an internal
 * account (internally managed, or an internal admin) and only users sharing one of their
 * organisations. A shared organisation alone is not enough: that was issue 28.
 */
export function reaches(scope: AdminScope, target: TargetFacts): boolean {
  if (target.id === scope.id) return true;
  if (adminLevel(target.roles) >= (scope.kind === 'intern' ? 2 : 1)) return false;
  if (scope.kind === 'intern') return true;
  if (target.internallyManaged) return false;
  return target.memberships.some((o) => scope.orguids.has(o));
}

/**
 * Whether the scope may change the target's application access or delete the target: both are per
 * user, not per organisation, so they need a reach and administration of every organisation the
 * target belongs to; never on oneself.
 */
export function mayChange(scope: AdminScope, target: TargetFacts): boolean {
  return target.id !== scope.id && reaches(scope, target) && target.memberships.every((o) => administers(scope, o));
}

/** Whether the scope may remove the target's membership of `orguid` (oneself included: spec §6 warns about it). */
export function mayRemoveMembership(scope: AdminScope, target: TargetFacts, orguid: string): boolean {
  return reaches(scope, target) && target.memberships.includes(orguid) && administers(scope, orguid);
}
