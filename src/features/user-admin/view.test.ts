import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoIdentity, type DemoIdentity } from '../../../emulators/testing.ts';
import { getUser } from '../../lib/identity/admin.ts';
import { accessRows, ariaSort, countryNamer, inviteProblems, listStateOf, nextSort, outcomeOf, pageCount, queryOf, EMPTY_LIST_STATE } from './view.ts';
import * as v from 'valibot';

/*
 * The action/state table of the contract (/work/briefs/user-admin-contract.md), written out here
 * by hand: which buttons the detail page shows for an application in each status.
 */
const CONTRACT_BUTTONS: Record<string, string[]> = {
  none: ['invite', 'add'],
  inactive: ['grant', 'edit'],
  declined: ['grant'],
  pending: ['accept', 'decline'],
  active: ['edit', 'withdraw'],
  invited: ['resend', 'decline', 'withdraw'],
  inviteexpired: ['reinvite'],
  unknown: [],
};

describe('the access rows of a user (buttons per status, from the seeded users through identity management)', () => {
  let idp: DemoIdentity;
  let token: string;
  beforeAll(async () => {
    idp = await startDemoIdentity();
    token = (await idp.signIn('admin@demo.komax.test')).access_token;
  });
  afterAll(() => idp?.close());

  // Harness Demo Inc. holds every status (emulators/data/README.md).
  const cases: [string, string, string][] = [
    ['pending', 'olivia.grant (24)', '7f3c2a10-5b1e-4c6a-9d2e-1a0000000024:assetdb'],
    ['invited', 'brian.walker (11)', '7f3c2a10-5b1e-4c6a-9d2e-1a0000000011:serviceticketing'],
    ['inviteexpired', 'isabel.cruz (18)', '7f3c2a10-5b1e-4c6a-9d2e-1a0000000018:serviceticketing'],
    ['active', 'emily.foster (14)', '7f3c2a10-5b1e-4c6a-9d2e-1a0000000014:assetdb'],
    ['inactive', 'frank.novak (15)', '7f3c2a10-5b1e-4c6a-9d2e-1a0000000015:serviceticketing'],
    ['declined', 'gabriela.santos (16)', '7f3c2a10-5b1e-4c6a-9d2e-1a0000000016:assetdb'],
    ['unknown', 'luis.herrera (21)', '7f3c2a10-5b1e-4c6a-9d2e-1a0000000021:lmsefront'],
    ['none', 'nathan.reed (23)', '7f3c2a10-5b1e-4c6a-9d2e-1a0000000023:direct'],
  ];
  it.each(cases)('%s (%s) shows exactly the contract\'s actions', async (status, _who, key) => {
    const [id, application] = key.split(':') as [string, string];
    const user = await getUser({ managementUrl: idp.managementUrl }, token, id);
    const row = accessRows({ ...user, canChangeAccess: true }).find((r) => r.application === application)!;
    expect(row.status).toBe(status);
    expect([...row.actions].sort()).toEqual([...CONTRACT_BUTTONS[status]!].sort());
  });

  it('lists every application once, records first in application order', async () => {
    const user = await getUser({ managementUrl: idp.managementUrl }, token, '7f3c2a10-5b1e-4c6a-9d2e-1a0000000012');
    const rows = accessRows({ ...user, canChangeAccess: true });
    expect(rows.map((r) => r.application)).toEqual(['serviceticketing', 'assetdb', 'artemis', 'direct', 'mfpwm', 'mfpmds', 'lmsefront']);
    expect(rows.filter((r) => r.status === 'none')).toHaveLength(5);
    // Without the right to change the user's access (policy.ts), no row offers an action.
    expect(accessRows({ ...user, canChangeAccess: false }).flatMap((r) => r.actions)).toEqual([]);
  });
});

describe('list state and URL', () => {
  it('reads the page URL, dropping unknown values', () => {
    expect(listStateOf('?search=ann&status=pending&sort=-city&page=3&application=coffee')).toEqual({ ...EMPTY_LIST_STATE, search: 'ann', status: 'pending', sort: '-city', page: 3 });
    expect(listStateOf('?sort=colour&page=-1&status=x')).toEqual(EMPTY_LIST_STATE);
  });
  it('writes the defaults out of the page URL, and the page size into the API query', () => {
    expect(queryOf(EMPTY_LIST_STATE)).toBe('');
    expect(queryOf({ ...EMPTY_LIST_STATE, orguid: 'org-hdi', page: 2 })).toBe('?orguid=org-hdi&page=2');
    expect(queryOf(EMPTY_LIST_STATE, true)).toBe('?sort=name&pageSize=20');
  });
  it('sorts ascending first, then flips; aria-sort follows', () => {
    expect(nextSort('name', 'email')).toBe('email');
    expect(nextSort('email', 'email')).toBe('-email');
    expect(nextSort('-email', 'email')).toBe('email');
    expect(ariaSort('-email', 'email')).toBe('descending');
    expect(ariaSort('email', 'email')).toBe('ascending');
    expect(ariaSort('email', 'name')).toBe('none');
  });
  it('counts pages (at least one)', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(20)).toBe(1);
    expect(pageCount(21)).toBe(2);
  });
});

describe('the invite form', () => {
  it('names the spec messages for an invalid e-mail and an empty selection', () => {
    expect(inviteProblems({ email: 'nope', orguid: '', applications: [] })).toEqual({
      email: 'userAdmin.invite.emailInvalid', orguid: 'userAdmin.invite.selectItem', applications: 'userAdmin.invite.selectItem',
    });
    expect(inviteProblems({ email: ' ana@hdi.example ', orguid: 'org-hdi', applications: ['assetdb'] })).toEqual({});
  });
});

describe('outcomeOf', () => {
  it('reads the error body: status, code, message and detail', async () => {
    const res = new Response(JSON.stringify({ error: 'conflict', message: 'User already exists', detail: { userId: 'u', permitted: true } }), { status: 409 });
    expect(await outcomeOf(res, v.unknown())).toEqual({ kind: 'error', status: 409, error: 'conflict', message: 'User already exists', detail: { userId: 'u', permitted: true } });
  });
  it('a success in an unexpected shape is an error with the reason', async () => {
    const out = await outcomeOf(new Response('{"x":1}'), v.object({ id: v.string() }));
    expect(out.kind).toBe('error');
  });
});

describe('countryNamer', () => {
  it('prefers the site\'s names, then the browser\'s region names, then the code', () => {
    const name = countryNamer([{ code: 'CH', name: 'Schweiz' }], 'de');
    expect(name('CH')).toBe('Schweiz');
    expect(name('MX')).toBe('Mexiko');
    expect(name('')).toBe('');
  });
});
