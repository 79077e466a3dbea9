import { describe, expect, it } from 'vitest';
import { administers, callerOf, decide, permissionsOf, reach, targetOf, withPermissions, type Caller, type Denial, type Target } from './policy.ts';
import type { UserDetail } from '../../lib/identity/admin-map.ts';

/*
 * Issue 28: administrator kind × target kind × action. Each caller is a member of org-a only; an
 * entry is the answer (true) or the reason of the refusal.
 */

const target = (id: string, organisations: string[], extra: Partial<Target> = {}): Target => ({ id, adminKind: null, internallyManaged: false, organisations, ...extra });
const TARGETS: Record<string, Target> = {
  'user of org-a': target('u-a', ['org-a']),
  'user of org-a and org-b': target('u-ab', ['org-a', 'org-b']),
  'user of org-b': target('u-b', ['org-b']),
  'user of no organisation': target('u-none', []),
  'internally managed employee of org-a': target('emp-a', ['org-a'], { internallyManaged: true }),
  'external admin of org-a': target('ext-a', ['org-a'], { adminKind: 'extern' }),
  'external admin of org-a and org-b': target('ext-ab', ['org-a', 'org-b'], { adminKind: 'extern' }),
  'internal admin of org-a': target('int-a', ['org-a'], { adminKind: 'intern', internallyManaged: true }),
  'internal admin, not internally managed, of org-a': target('int-a2', ['org-a'], { adminKind: 'intern' }),
  oneself: target('me', ['org-a']),
};

type Answer = true | Denial;
/** [view, change access, delete, remove from org-a, remove from org-b] */
type Row = [Answer, Answer, Answer, Answer, Answer];
const FAR = 'no-shared-organisation';
const INTERNAL = 'internal-account';
const LEVEL = 'admin-of-equal-or-higher-level';
const OTHER = 'other-organisations';
const OWN = 'own-account';
const NOT_MEMBER = 'not-a-member';
const NOT_ADMINISTERED = 'organisation-not-administered';

const MATRIX: Record<'extern' | 'intern', Record<string, Row>> = {
  extern: {
    'user of org-a': [true, true, true, true, NOT_MEMBER],
    'user of org-a and org-b': [true, OTHER, OTHER, true, NOT_ADMINISTERED],
    'user of org-b': [FAR, FAR, FAR, FAR, FAR],
    'user of no organisation': [FAR, FAR, FAR, FAR, FAR],
    'internally managed employee of org-a': [INTERNAL, INTERNAL, INTERNAL, INTERNAL, INTERNAL],
    'external admin of org-a': [LEVEL, LEVEL, LEVEL, LEVEL, LEVEL],
    'external admin of org-a and org-b': [LEVEL, LEVEL, LEVEL, LEVEL, LEVEL],
    'internal admin of org-a': [INTERNAL, INTERNAL, INTERNAL, INTERNAL, INTERNAL],
    'internal admin, not internally managed, of org-a': [INTERNAL, INTERNAL, INTERNAL, INTERNAL, INTERNAL],
    oneself: [true, OWN, OWN, true, NOT_MEMBER],
  },
  intern: {
    'user of org-a': [true, true, true, true, NOT_MEMBER],
    'user of org-a and org-b': [true, true, true, true, true],
    'user of org-b': [true, true, true, NOT_MEMBER, true],
    'user of no organisation': [true, true, true, NOT_MEMBER, NOT_MEMBER],
    'internally managed employee of org-a': [true, true, true, true, NOT_MEMBER],
    'external admin of org-a': [true, true, true, true, NOT_MEMBER],
    'external admin of org-a and org-b': [true, true, true, true, true],
    'internal admin of org-a': [LEVEL, LEVEL, LEVEL, LEVEL, LEVEL],
    'internal admin, not internally managed, of org-a': [LEVEL, LEVEL, LEVEL, LEVEL, LEVEL],
    oneself: [true, OWN, OWN, true, NOT_MEMBER],
  },
};

const answer = (caller: Caller, t: Target, action: Parameters<typeof decide>[2]): Answer => {
  const d = decide(caller, t, action);
  return d.allowed ? true : d.reason;
};

describe('the permission matrix (administrator kind × target kind × action)', () => {
  for (const kind of ['extern', 'intern'] as const) {
    const caller: Caller = { id: 'me', kind, organisations: ['org-a'] };
    for (const [name, t] of Object.entries(TARGETS)) {
      const expected = MATRIX[kind][name]!;
      it(`${kind === 'intern' ? 'internal' : 'external'} admin → ${name}: ${expected.join(', ')}`, () => {
        expect([
          answer(caller, t, { kind: 'view' }),
          answer(caller, t, { kind: 'change-access' }),
          answer(caller, t, { kind: 'delete' }),
          answer(caller, t, { kind: 'remove-membership', orguid: 'org-a' }),
          answer(caller, t, { kind: 'remove-membership', orguid: 'org-b' }),
        ]).toEqual(expected);
        // The screen's permissions agree with the decisions.
        const p = permissionsOf(caller, t);
        expect(p).toEqual({
          view: expected[0] === true,
          changeAccess: expected[1] === true,
          delete: expected[2] === true,
          removable: ['org-a', 'org-b'].filter((o, i) => expected[3 + i] === true && t.organisations.includes(o)),
          restriction: expected[0] !== true || expected[1] === true ? null : expected[1] === OWN ? 'own-account' : 'other-organisations',
        });
      });
    }
  }

  it('an external admin without organisations reaches only themselves', () => {
    const caller: Caller = { id: 'me', kind: 'extern', organisations: [] };
    expect(reach(caller, target('u-a', ['org-a']))).toEqual({ allowed: false, reason: FAR });
    expect(reach(caller, target('me', []))).toEqual({ allowed: true });
    expect(administers(caller, 'org-a')).toBe(false);
  });
});

const detail = (extra: Partial<UserDetail>): UserDetail => ({
  id: 'u', firstName: 'A', lastName: 'B', name: 'A B', email: 'a@b.example', telephone: '', company: '', country: 'CH', city: '', role: 'user',
  adminKind: null, internallyManaged: false, access: [], canDelete: true,
  organisations: [{ orguid: 'org-a', name: 'A', subregion: '', country: '', city: '', members: 1 }], ...extra,
});

describe('reading identity management\'s view', () => {
  it('the caller is the admin kind and organisations of their own detail; none without an admin kind', () => {
    expect(callerOf(detail({ id: 'me', adminKind: 'extern' }))).toEqual({ id: 'me', kind: 'extern', organisations: ['org-a'] });
    expect(callerOf(detail({ id: 'me' }))).toBeNull();
    expect(targetOf(detail({ adminKind: 'intern', internallyManaged: true }))).toEqual({ id: 'u', adminKind: 'intern', internallyManaged: true, organisations: ['org-a'] });
  });

  it('the answer offers only what the permissions allow and leaves out the rule\'s inputs', () => {
    const user = detail({
      organisations: [{ orguid: 'org-a', name: 'A', subregion: '', country: '', city: '', members: 1 }, { orguid: 'org-b', name: 'B', subregion: '', country: '', city: '', members: 1 }],
      access: [{ application: 'assetdb', status: 'active', requestedBy: '', requestDate: '', inviteExpiresAt: null, updatedAt: '', actions: ['edit', 'withdraw'] }],
    });
    const limited = withPermissions(user, permissionsOf({ id: 'me', kind: 'extern', organisations: ['org-a'] }, targetOf(user)));
    expect(limited).toMatchObject({ canDelete: false, canChangeAccess: false, restriction: 'other-organisations', access: [{ actions: [] }],
      organisations: [{ orguid: 'org-a', removable: true }, { orguid: 'org-b', removable: false }] });
    expect(limited).not.toHaveProperty('adminKind');
    expect(limited).not.toHaveProperty('internallyManaged');
    const full = withPermissions(user, permissionsOf({ id: 'me', kind: 'intern', organisations: [] }, targetOf(user)));
    expect(full).toMatchObject({ canDelete: true, canChangeAccess: true, restriction: null, access: [{ actions: ['edit', 'withdraw'] }] });
    // Identity management's own "no" stays a no.
    expect(withPermissions({ ...user, canDelete: false }, permissionsOf({ id: 'me', kind: 'intern', organisations: [] }, targetOf(user))).canDelete).toBe(false);
  });
});
