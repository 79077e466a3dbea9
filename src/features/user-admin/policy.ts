import type { AdminKind, UserDetail } from '../../lib/identity/admin-map.ts';

/*
 * Who may do what in delegated user administration (spec customer-area §6; issue 28). Pure: the API
 * handlers (api.server.ts) load the administrator and the target from identity management, ask
 * here, and refuse before forwarding anything. Identity management applies the same rule itself
 * (the emulator: emulators/identity/access.ts); this is our own line of defence, so a too generous
 * rule there cannot reach the users of another organisation through our API.
 *
 * - An administrator reaches oneself, and otherwise never an administrator of their own level or
 *   above (internal admins above external ones). An external administrator never reaches an
 *   internal account (internally managed, or an internal admin) and only users sharing one of
 *   their organisations; an internal administrator administers every organisation.
 * - Application access and deletion are per user, not per organisation: they need administration
 *   of every organisation the user belongs to, and nobody changes their own access or deletes
 *   themselves here. Otherwise only "remove from this organisation" is left.
 * - A membership may be removed by an administrator of that organisation (one's own too: the
 *   screen warns that it may take away one's rights).
 */

/** The administrator asking (their own user detail says which kind and where they belong). */
export interface Caller {
  id: string;
  kind: AdminKind;
  organisations: readonly string[];
}

/** What the rule needs to know of the user acted on. */
export interface Target {
  id: string;
  adminKind: AdminKind | null;
  internallyManaged: boolean;
  organisations: readonly string[];
}

/** Why a request is refused (for the log and the tests; the answer is always the spec's permission message). */
export type Denial =
  | 'internal-account'
  | 'admin-of-equal-or-higher-level'
  | 'no-shared-organisation'
  | 'own-account'
  | 'other-organisations'
  | 'not-a-member'
  | 'organisation-not-administered';

export type UserAction =
  | { kind: 'view' }
  | { kind: 'change-access' }
  | { kind: 'delete' }
  | { kind: 'remove-membership'; orguid: string };

export type Decision = { allowed: true } | { allowed: false; reason: Denial };

/** What the detail screen may offer for a user. */
export interface Permissions {
  view: boolean;
  changeAccess: boolean;
  delete: boolean;
  /** The organisations whose membership may be removed. */
  removable: string[];
  /** Why access changes and deletion are not offered to a user one may view (null when they are). */
  restriction: 'own-account' | 'other-organisations' | null;
}

const LEVEL: Record<AdminKind | 'none', number> = { none: 0, extern: 1, intern: 2 };
const ALLOWED: Decision = { allowed: true };
const deny = (reason: Denial): Decision => ({ allowed: false, reason });

/** The caller of a user detail (identity management's own view of the administrator); null when it names no admin kind. */
export function callerOf(self: Pick<UserDetail, 'id' | 'adminKind' | 'organisations'>): Caller | null {
  return self.adminKind ? { id: self.id, kind: self.adminKind, organisations: self.organisations.map((o) => o.orguid) } : null;
}

/** The target facts of a user detail or list row. */
export function targetOf(user: Pick<UserDetail, 'id' | 'adminKind' | 'internallyManaged'> & { organisations: readonly { orguid: string }[] }): Target {
  return { id: user.id, adminKind: user.adminKind, internallyManaged: user.internallyManaged, organisations: user.organisations.map((o) => o.orguid) };
}

/** Whether the caller administers the organisation (invite into it, remove memberships of it). */
export function administers(caller: Caller, orguid: string): boolean {
  return caller.kind === 'intern' || caller.organisations.includes(orguid);
}

/** Whether the caller reaches (may see) the target at all. */
export function reach(caller: Caller, target: Target): Decision {
  if (target.id === caller.id) return ALLOWED;
  if (caller.kind === 'extern' && (target.internallyManaged || target.adminKind === 'intern')) return deny('internal-account');
  if (LEVEL[target.adminKind ?? 'none'] >= LEVEL[caller.kind]) return deny('admin-of-equal-or-higher-level');
  if (caller.kind === 'extern' && !target.organisations.some((o) => administers(caller, o))) return deny('no-shared-organisation');
  return ALLOWED;
}

/** The decision on one action of the caller on the target. */
export function decide(caller: Caller, target: Target, action: UserAction): Decision {
  const reached = reach(caller, target);
  if (!reached.allowed || action.kind === 'view') return reached;
  if (action.kind === 'remove-membership') {
    if (!target.organisations.includes(action.orguid)) return deny('not-a-member');
    return administers(caller, action.orguid) ? ALLOWED : deny('organisation-not-administered');
  }
  if (target.id === caller.id) return deny('own-account');
  return target.organisations.every((o) => administers(caller, o)) ? ALLOWED : deny('other-organisations');
}

/** Everything the detail screen may offer the caller for the target. */
export function permissionsOf(caller: Caller, target: Target): Permissions {
  const view = reach(caller, target).allowed;
  const change = decide(caller, target, { kind: 'change-access' });
  const restriction = !view || change.allowed ? null : change.reason === 'own-account' ? 'own-account' : 'other-organisations';
  return {
    view,
    changeAccess: change.allowed,
    delete: decide(caller, target, { kind: 'delete' }).allowed,
    removable: target.organisations.filter((orguid) => decide(caller, target, { kind: 'remove-membership', orguid }).allowed),
    restriction,
  };
}

/** A user detail as our API answers it: the actions limited to the permissions, the rule's own inputs left out. */
export function withPermissions(user: UserDetail, p: Permissions) {
  const { adminKind: _kind, internallyManaged: _internal, ...rest } = user;
  return {
    ...rest,
    organisations: user.organisations.map((o) => ({ ...o, removable: p.removable.includes(o.orguid) })),
    access: user.access.map((a) => ({ ...a, actions: p.changeAccess ? a.actions : [] })),
    canDelete: user.canDelete && p.delete,
    canChangeAccess: p.changeAccess,
    restriction: p.restriction,
  };
}
export type UserDetailAnswer = ReturnType<typeof withPermissions>;
