// The pure rules of delegated user administration: the action/state table, effective statuses,
// derived roles and the permission rule.
import { describe, expect, it } from 'vitest';
import {
  ACTIONS, adminScope, administers, allowedActions, derivedRoles, effectiveStatus, mayChange, mayRemoveMembership, reaches, roleAsAccess, transition,
  type Action, type ActionFrom, type TargetFacts,
} from './access.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const FROM: ActionFrom[] = ['none', 'invited', 'inviteexpired', 'pending', 'active', 'inactive', 'declined', 'unknown'];

// The contract's table, written out: action → { from status → stored status after it }.
const TABLE: Record<Action, Partial<Record<ActionFrom, string>>> = {
  invite: { none: 'invited' },
  add: { none: 'active' },
  grant: { inactive: 'active', declined: 'active' },
  accept: { pending: 'active' },
  edit: { active: 'inactive', inactive: 'inactive' },
  resend: { invited: 'invited' },
  reinvite: { inviteexpired: 'invited' },
  decline: { pending: 'declined', invited: 'declined' },
  withdraw: { active: 'inactive', invited: 'inactive' },
};

describe('action/state table', () => {
  for (const action of ACTIONS) {
    for (const from of FROM) {
      const to = TABLE[action][from];
      it(`${action} from ${from}: ${to ? `→ ${to}` : '409'}`, () => {
        const result = transition(action, from, action === 'edit' ? 'inactive' : undefined);
        if (to) {
          expect(result).toEqual({ ok: true, status: to, newInvite: ['invite', 'resend', 'reinvite'].includes(action) });
        } else {
          expect(result).toEqual({ ok: false, message: `Action ${action} is not allowed when access is ${from}` });
        }
      });
    }
  }

  it('edit sets the given status and needs one', () => {
    expect(transition('edit', 'inactive', 'active')).toEqual({ ok: true, status: 'active', newInvite: false });
    expect(transition('edit', 'active', 'active')).toEqual({ ok: true, status: 'active', newInvite: false });
    expect(transition('edit', 'active')).toMatchObject({ ok: false });
  });

  it('lists the allowed actions of each status', () => {
    expect(Object.fromEntries(FROM.map((from) => [from, allowedActions(from)]))).toEqual({
      none: ['invite', 'add'],
      invited: ['resend', 'decline', 'withdraw'],
      inviteexpired: ['reinvite'],
      pending: ['accept', 'decline'],
      active: ['edit', 'withdraw'],
      inactive: ['grant', 'edit'],
      declined: ['grant'],
      unknown: [],
    });
  });
});

describe('effective status', () => {
  it('computes inviteexpired, unknown and none', () => {
    expect(effectiveStatus(undefined, NOW)).toBe('none');
    expect(effectiveStatus({ status: 'invited', inviteExpiresAt: '2026-03-01T12:00:01Z' }, NOW)).toBe('invited');
    expect(effectiveStatus({ status: 'invited', inviteExpiresAt: '2026-03-01T11:59:59Z' }, NOW)).toBe('inviteexpired');
    expect(effectiveStatus({ status: 'active', inviteExpiresAt: '2020-01-01T00:00:00Z' }, NOW)).toBe('active');
    expect(effectiveStatus({ status: 'suspended', inviteExpiresAt: null }, NOW)).toBe('unknown');
    expect(effectiveStatus({ status: 'inviteexpired', inviteExpiresAt: null }, NOW)).toBe('unknown');
  });
});

describe('derived roles', () => {
  const rec = (application: string, status: string, inviteExpiresAt: string | null = null) => ({ application, status, inviteExpiresAt });

  it('static roles plus kmx_int_<application>_<status> for active, pending, invited and inviteexpired only', () => {
    expect(derivedRoles(['kmx_delegatedadmin_extern'], [
      rec('serviceticketing', 'active'), rec('direct', 'pending'), rec('lmsefront', 'invited', '2026-03-05T00:00:00Z'),
      rec('mfpwm', 'invited', '2026-02-01T00:00:00Z'), rec('assetdb', 'inactive'), rec('artemis', 'declined'), rec('mfpmds', 'weird'),
    ], NOW)).toEqual([
      'kmx_delegatedadmin_extern', 'kmx_int_serviceticketing_active', 'kmx_int_direct_pending', 'kmx_int_lmsefront_invited', 'kmx_int_mfpwm_inviteexpired',
    ]);
  });

  it('gives back the role lists the demo users always had, in the same order', () => {
    const before = [
      ['kmx_int_serviceticketing_active', 'kmx_int_assetdb_active', 'kmx_int_artemis_active', 'kmx_int_direct_active', 'kmx_int_lmsefront_active'],
      ['kmx_int_artemis_active', 'kmx_artemis_onpremuser', 'kmx_int_direct_pending', 'kmx_int_lmsefront_invited'],
      ['kmx_int_lmsefront_inviteexpired', 'kmx_int_mfpwm_active'],
      [],
      ['kmx_delegatedadmin_extern', 'kmx_int_serviceticketing_active', 'kmx_int_mfpwm_active', 'kmx_int_mfpmds_active'],
      ['kmx_delegatedadmin_intern', 'kmx_int_serviceticketing_active', 'kmx_int_assetdb_active', 'kmx_int_direct_active'],
    ];
    for (const roles of before) {
      const records = roles.map(roleAsAccess).filter((r) => !!r).map((r) => r.status === 'inviteexpired'
        ? rec(r.application, 'invited', '2026-02-01T00:00:00Z')
        : rec(r.application, r.status, r.status === 'invited' ? '2026-03-05T00:00:00Z' : null));
      expect(derivedRoles(roles.filter((r) => !roleAsAccess(r)), records, NOW)).toEqual(roles);
    }
  });
});

describe('permission rule', () => {
  it('an admin scope needs a delegated admin role', () => {
    expect(adminScope('x', ['kmx_int_serviceticketing_active', 'kmx_artemis_onpremuser'], ['org-a'])).toBeNull();
    expect(adminScope('x', [], [])).toBeNull();
    expect(adminScope('i', ['kmx_delegatedadmin_intern', 'kmx_delegatedadmin_extern'], [])).toEqual({ kind: 'intern', id: 'i' });
    const extern = adminScope('e', ['kmx_delegatedadmin_extern'], ['org-a'])!;
    expect(administers(extern, 'org-a')).toBe(true);
    expect(administers(extern, 'org-b')).toBe(false);
    expect(administers(adminScope('i', ['kmx_delegatedadmin_intern'], [])!, 'org-b')).toBe(true);
  });

  // Issue 28: administrator kind × target kind × action. The caller is a member of org-a only.
  const INTERN = 'kmx_delegatedadmin_intern';
  const EXTERN = 'kmx_delegatedadmin_extern';
  const target = (id: string, memberships: string[], roles: string[] = [], internallyManaged = false): TargetFacts => ({ id, roles, internallyManaged, memberships });
  const TARGETS: Record<string, TargetFacts> = {
    'user of org-a': target('u-a', ['org-a']),
    'user of org-a and org-b': target('u-ab', ['org-a', 'org-b']),
    'user of org-b': target('u-b', ['org-b']),
    'user of no organisation': target('u-none', []),
    'internally managed employee of org-a': target('emp-a', ['org-a'], [], true),
    'external admin of org-a': target('ext-a', ['org-a'], [EXTERN]),
    'internal admin of org-a': target('int-a', ['org-a'], [INTERN], true),
    'internal admin, not internally managed, of org-a': target('int-a2', ['org-a'], [INTERN]),
    oneself: target('me', ['org-a']),
  };
  // [view, change access or delete, remove from org-a, remove from org-b]
  type Row = [boolean, boolean, boolean, boolean];
  const MATRIX: Record<'extern' | 'intern', Record<string, Row>> = {
    extern: {
      'user of org-a': [true, true, true, false],
      'user of org-a and org-b': [true, false, true, false],
      'user of org-b': [false, false, false, false],
      'user of no organisation': [false, false, false, false],
      'internally managed employee of org-a': [false, false, false, false],
      'external admin of org-a': [false, false, false, false],
      'internal admin of org-a': [false, false, false, false],
      'internal admin, not internally managed, of org-a': [false, false, false, false],
      oneself: [true, false, true, false],
    },
    intern: {
      'user of org-a': [true, true, true, false],
      'user of org-a and org-b': [true, true, true, true],
      'user of org-b': [true, true, false, true],
      'user of no organisation': [true, true, false, false],
      'internally managed employee of org-a': [true, true, true, false],
      'external admin of org-a': [true, true, true, false],
      'internal admin of org-a': [false, false, false, false],
      'internal admin, not internally managed, of org-a': [false, false, false, false],
      oneself: [true, false, true, false],
    },
  };
  for (const kind of ['extern', 'intern'] as const) {
    const scope = adminScope('me', [kind === 'intern' ? INTERN : EXTERN], ['org-a'])!;
    for (const [name, facts] of Object.entries(TARGETS)) {
      const [view, change, removeA, removeB] = MATRIX[kind][name]!;
      it(`${kind === 'intern' ? 'internal' : 'external'} admin → ${name}: view ${view}, access/delete ${change}, remove org-a ${removeA}, org-b ${removeB}`, () => {
        expect(reaches(scope, facts)).toBe(view);
        expect(mayChange(scope, facts)).toBe(change);
        expect(mayRemoveMembership(scope, facts, 'org-a')).toBe(removeA);
        expect(mayRemoveMembership(scope, facts, 'org-b')).toBe(removeB);
      });
    }
  }

  it('an external admin without any membership (e.g. after removing their own) reaches nobody but themselves', () => {
    const scope = adminScope('me', [EXTERN], [])!;
    expect(reaches(scope, target('u-a', ['org-a']))).toBe(false);
    expect(reaches(scope, target('me', []))).toBe(true);
  });
});
