import { describe, expect, it } from 'vitest';
import { loadWork, workFigures, workHref, type WorkSources } from './work.ts';

/** Sources that answer fixed counts and record what they were asked. */
function sources(overrides: Partial<WorkSources> = {}) {
  const asked: string[] = [];
  const s: WorkSources = {
    ticketCount: async (statuses) => { asked.push(`tickets:${statuses.join(',')}`); return statuses.length === 1 ? 2 : 7; },
    machineCount: async () => { asked.push('machines'); return 12; },
    invitationCount: async () => { asked.push('invitations'); return 3; },
    ...overrides,
  };
  return { s, asked };
}

describe('work figures per role (issue 29 item 16)', () => {
  it('no roles: no figures', () => {
    expect(workFigures([])).toEqual([]);
  });

  it('tickets give open and waiting tickets; inventory the machines; delegated admin the invitations', () => {
    expect(workFigures(['kmx_int_serviceticketing_active'])).toEqual(['openTickets', 'waitingForCustomer']);
    expect(workFigures(['kmx_int_assetdb_active'])).toEqual(['machines']);
    expect(workFigures(['kmx_delegatedadmin_extern'])).toEqual(['pendingInvitations']);
    expect(workFigures(['kmx_delegatedadmin_intern'])).toEqual(['pendingInvitations']);
  });

  it('all of them in a fixed order, whatever the order of the roles', () => {
    expect(workFigures(['kmx_delegatedadmin_intern', 'kmx_int_assetdb_active', 'kmx_int_serviceticketing_active'])).toEqual(['openTickets', 'waitingForCustomer', 'machines', 'pendingInvitations']);
  });

  it('other services and look-alike roles give none', () => {
    expect(workFigures(['kmx_int_artemis_active', 'kmx_int_direct_active', 'KMX_INT_ASSETDB_ACTIVE', 'kmx_delegatedadmin'])).toEqual([]);
  });
});

describe('loadWork', () => {
  it('open tickets count every status but closed; waiting counts the waiting ones', async () => {
    const { s, asked } = sources();
    expect(await loadWork(['openTickets', 'waitingForCustomer'], s)).toEqual({ openTickets: 7, waitingForCustomer: 2 });
    expect(asked).toEqual(['tickets:NEW,IN_PROGRESS,WAITING_FOR_CUSTOMER', 'tickets:WAITING_FOR_CUSTOMER']);
  });

  it('asks only for the figures it is given (never a service the roles do not open)', async () => {
    const { s, asked } = sources();
    expect(await loadWork(workFigures(['kmx_int_assetdb_active']), s)).toEqual({ machines: 12 });
    expect(asked).toEqual(['machines']);
    const none = sources();
    expect(await loadWork(workFigures([]), none.s)).toEqual({});
    expect(none.asked).toEqual([]);
  });

  it('a failing source leaves its figure null and the others standing', async () => {
    const { s } = sources({ invitationCount: async () => { throw new Error('502'); } });
    expect(await loadWork(['machines', 'pendingInvitations'], s)).toEqual({ machines: 12, pendingInvitations: null });
  });

  it('a zero is a value, not a failure', async () => {
    const { s } = sources({ machineCount: async () => 0 });
    expect(await loadWork(['machines'], s)).toEqual({ machines: 0 });
  });
});

describe('workHref', () => {
  const paths = { tickets: '/de/mykomax/tickets/list', inventory: '/de/mykomax/inventory', userAdmin: '/de/mykomax/user-admin' };
  it('leads to the list each figure counts, filtered the same way', () => {
    expect(workHref('openTickets', paths)).toBe('/de/mykomax/tickets/list?status=NEW%2CIN_PROGRESS%2CWAITING_FOR_CUSTOMER');
    expect(workHref('waitingForCustomer', paths)).toBe('/de/mykomax/tickets/list?status=WAITING_FOR_CUSTOMER');
    expect(workHref('machines', paths)).toBe('/de/mykomax/inventory');
    expect(workHref('pendingInvitations', paths)).toBe('/de/mykomax/user-admin?status=invited');
  });
});
