import type { TicketStatus } from '../../lib/ticketing/types.ts';
import { OPEN_STATUSES } from '../tickets/view.ts';
import { roleStatuses } from '../customer-area/roles.ts';

/*
 * The dashboard's work to do (issue 29 item 16): open tickets, tickets waiting for the customer,
 * the number of machines, pending invitations for administrators. Each figure comes from an API
 * the user's token already reaches (the tickets proxy, the user administration API) and is asked
 * for only when the roles open its service, so the dashboard never shows, nor asks for, what the
 * roles do not allow. Pure: the island passes the calls in.
 */

export const WORK_FIGURES = ['openTickets', 'waitingForCustomer', 'machines', 'pendingInvitations'] as const;
export type WorkFigure = (typeof WORK_FIGURES)[number];

export const WAITING_STATUS: TicketStatus = 'WAITING_FOR_CUSTOMER';

/** The figures the roles allow, in the order the dashboard shows them. */
export function workFigures(roles: Iterable<string>): WorkFigure[] {
  const s = roleStatuses(roles);
  return [
    ...(s.serviceTicketing === 'active' ? (['openTickets', 'waitingForCustomer'] as const) : []),
    ...(s.inventory === 'active' ? (['machines'] as const) : []),
    ...(s.delegatedAdmin === 'active' ? (['pendingInvitations'] as const) : []),
  ];
}

/** How many tickets, machines and invited users there are: each call answers a total count. */
export interface WorkSources {
  ticketCount(statuses: readonly TicketStatus[]): Promise<number>;
  machineCount(): Promise<number>;
  /** Users of the administrator's organisations with an open invitation. */
  invitationCount(): Promise<number>;
}

/** A figure's value: its count, or null when its service could not answer. */
export type WorkValues = Partial<Record<WorkFigure, number | null>>;

/**
 * The allowed figures' values, asked for in parallel; a failing call leaves its figure null (the
 * dashboard says it is unavailable) without hiding the others.
 */
export async function loadWork(figures: readonly WorkFigure[], sources: WorkSources): Promise<WorkValues> {
  const call: Record<WorkFigure, () => Promise<number>> = {
    openTickets: () => sources.ticketCount(OPEN_STATUSES),
    waitingForCustomer: () => sources.ticketCount([WAITING_STATUS]),
    machines: () => sources.machineCount(),
    pendingInvitations: () => sources.invitationCount(),
  };
  const values = await Promise.all(figures.map((f) => call[f]().then((n) => n, () => null)));
  return Object.fromEntries(figures.map((f, i) => [f, values[i]!]));
}

/** The pages the figures lead to (localized, from the server). */
export interface WorkPaths {
  tickets: string;
  inventory: string;
  userAdmin: string;
}

/**
 * Where a figure leads: the list it counts, filtered the same way (the lists keep their filters in
 * the address: tickets `?status=`, user administration `?status=`).
 * @example workHref('waitingForCustomer', paths) // '/en/mykomax/tickets/list?status=WAITING_FOR_CUSTOMER'
 */
export function workHref(figure: WorkFigure, paths: WorkPaths): string {
  switch (figure) {
    case 'openTickets':
      return `${paths.tickets}?${new URLSearchParams({ status: OPEN_STATUSES.join(',') })}`;
    case 'waitingForCustomer':
      return `${paths.tickets}?${new URLSearchParams({ status: WAITING_STATUS })}`;
    case 'machines':
      return paths.inventory;
    case 'pendingInvitations':
      return `${paths.userAdmin}?${new URLSearchParams({ status: 'invited' })}`;
  }
}
