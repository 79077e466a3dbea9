import type { LogLevel } from '../log/levels.ts';
import type { UpstreamTimeouts } from '../http/timeouts.ts';

/** Where the ticketing API is and how the proxy calls it (src/server/boot/env.ts `ticketingConfig`). */
export interface TicketingConfig {
  /** The GraphQL endpoint, e.g. `http://127.0.0.1:4103/graphql` (TICKETING_ENDPOINT, else CATALOGUE_ENDPOINT). */
  endpoint: string;
  /** Sent as `x-debug-level` with every authenticated call (spec §7, §9): the server's LOG_LEVEL. */
  debugLevel: LogLevel;
  /** Seals the download links the proxy hands out (TICKETING_LINK_SECRET, else random per process). */
  linkSecret: string;
  timeouts: Required<UpstreamTimeouts>;
  /** How long a visitor's upload may pause before it is stopped (UPLOAD_IDLE_TIMEOUT_MS; default UPLOAD_IDLE_MS). */
  uploadIdleMs?: number;
}

export const TICKET_STATUSES = ['NEW', 'IN_PROGRESS', 'WAITING_FOR_CUSTOMER', 'CLOSED'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_TYPES = ['TECHNICAL_SUPPORT', 'REPAIR', 'SPARE_PARTS', 'MAINTENANCE', 'SOFTWARE', 'TRAINING'] as const;
export type TicketType = (typeof TICKET_TYPES)[number];
/** Spec §4: resolved by the provider's team, resolved without them, no longer relevant. */
export const CLOSING_REASONS = ['RESOLVED_BY_KOMAX', 'RESOLVED_WITHOUT_KOMAX', 'NO_LONGER_RELEVANT'] as const;
export type ClosingReason = (typeof CLOSING_REASONS)[number];
export const TICKET_SORT_FIELDS = ['CREATED_ON', 'UPDATED_ON', 'STATUS', 'SUBJECT'] as const;
export type TicketSortField = (typeof TICKET_SORT_FIELDS)[number];
export type SortDirection = 'ASC' | 'DESC';
export const CONTRACT_STATES = ['ACTIVE', 'EXPIRED', 'NONE'] as const;
export type ContractState = (typeof CONTRACT_STATES)[number];

export interface Location { id: string; name: string; street: string; postalCode: string; city: string; country: string }
export interface Contact { id: string; name: string; email: string; phone: string }

/** One row of the ticket list. `type`/`status` are null when the service sends a value we do not know. */
export interface TicketSummary {
  id: string;
  type: TicketType | null;
  subject: string;
  status: TicketStatus | null;
  machine: string;
  serialNumber: string;
  createdOn: string;
  updatedOn: string;
}

export interface TicketMessage { id: string; author: string; fromKomax: boolean; body: string; createdOn: string }

export interface Attachment {
  id: string;
  fileName: string;
  contentType: string;
  size: number;
  createdOn: string;
  uploadedBy: string;
  /** Same-origin download link minted by the proxy (short-lived). */
  url: string;
}

export interface Ticket extends TicketSummary {
  description: string;
  closedOn: string | null;
  closingReason: ClosingReason | null;
  closingComment: string | null;
  concern: { id: string; name: string; model: string; serialNumber: string } | null;
  contact: Contact;
  location: Location;
  /** Replies of the service team and the customer's comments, oldest first. */
  conversation: TicketMessage[];
  attachments: Attachment[];
}

export interface Page<T> {
  items: T[];
  totalCount: number;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface TicketQuery {
  status?: TicketStatus[];
  search?: string;
  machineId?: string;
  sort?: { field: TicketSortField; direction: SortDirection };
  /** Cursor paging: `after` forwards, `before` backwards. */
  after?: string;
  before?: string;
  pageSize?: number;
}

export interface TicketFormOptions {
  locations: Location[];
  ticketTypes: TicketType[];
  machines: { id: string; name: string; model: string; serialNumber: string; locationId: string }[];
}

export interface Machine {
  id: string;
  name: string;
  model: string;
  serialNumber: string;
  installedOn: string | null;
  softwareVersion: string;
  location: Location;
  warranty: { state: ContractState; endsOn: string | null };
  serviceContract: { state: ContractState; name: string | null; endsOn: string | null };
  openTicketCount: number;
  openTickets: { id: string; subject: string; status: TicketStatus | null; createdOn: string }[];
}

export interface MachineQuery {
  search?: string;
  locationId?: string;
  warranty?: ContractState;
  serviceContract?: ContractState;
  hasOpenTickets?: boolean;
}

export interface SoftwareVersion { version: string; releasedOn: string; releaseNotes: string; fileName: string; size: number; sha256: string; downloadUrl: string }
export interface SoftwarePackage { id: string; name: string; description: string; versions: SoftwareVersion[] }
export type WireFlow = { userType: 'cloud'; entryPointUrl: string } | { userType: 'onprem'; packages: SoftwarePackage[] };

/** A mutation's refusal the user can fix: `field` names the form field (null for the whole form). */
export interface FieldError { field: string | null; code: string; message: string }
export type MutationResult<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

export interface CreateTicketInput {
  locationId: string;
  type: TicketType | '';
  machineId: string;
  subject: string;
  description: string;
  machineName?: string;
  serialNumber?: string;
}
