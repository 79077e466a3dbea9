// The pure rules of delegated user administration: the action/state table, effective statuses,
// derived roles and the permission rule.
import { describe, expect, it } from 'vitest';
import {
  ACTIONS, adminScope, administers, allowedActions, derivedRoles, effectiveStatus, reaches, roleAsAccess, transition,
  type Action, type ActionFrom,
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
  it('intern administers everybody, extern users sharing an organisation, anyone else nobody', () => {
    const intern = adminScope(['kmx_delegatedadmin_intern', 'kmx_int_direct_active'], [])!;
    const extern = adminScope(['kmx_delegatedadmin_extern'], ['org-hdi', 'org-phl'])!;
    expect(adminScope(['kmx_int_serviceticketing_active', 'kmx_artemis_onpremuser'], ['org-hdi'])).toBeNull();
    expect(adminScope([], [])).toBeNull();

    expect(reaches(intern, [])).toBe(true);
    expect(reaches(intern, ['org-dca'])).toBe(true);
    expect(reaches(extern, ['org-hdi'])).toBe(true);
    expect(reaches(extern, ['org-dca', 'org-phl'])).toBe(true);
    expect(reaches(extern, ['org-dca'])).toBe(false);
    expect(reaches(extern, [])).toBe(false);

    expect(administers(intern, 'org-owg')).toBe(true);
    expect(administers(extern, 'org-hdi')).toBe(true);
    expect(administers(extern, 'org-owg')).toBe(false);
    // An external admin without any membership (e.g. after removing their own) reaches nobody.
    expect(reaches(adminScope(['kmx_delegatedadmin_extern'], [])!, ['org-hdi'])).toBe(false);
  });
});
