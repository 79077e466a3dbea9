import type { RawMachineT, RawTicketT, RawUserErrorT } from './schema.ts';
import {
  CLOSING_REASONS, CONTRACT_STATES, TICKET_STATUSES, TICKET_TYPES,
  type Attachment, type ClosingReason, type ContractState, type FieldError, type Machine, type Ticket, type TicketStatus, type TicketSummary, type TicketType,
} from './types.ts';

/** Raw answers of the ticketing API → our types. Unknown enum values become null rather than failing the page. */

const oneOf = <T extends string>(list: readonly T[], value: string | null | undefined): T | null =>
  (list as readonly string[]).includes(value ?? '') ? (value as T) : null;

export const ticketStatus = (s: string | null | undefined): TicketStatus | null => oneOf(TICKET_STATUSES, s);
export const ticketType = (s: string | null | undefined): TicketType | null => oneOf(TICKET_TYPES, s);
export const closingReason = (s: string | null | undefined): ClosingReason | null => oneOf(CLOSING_REASONS, s);
const contractState = (s: string): ContractState => oneOf(CONTRACT_STATES, s) ?? 'NONE';

export function toTicketSummary(raw: { id: string; type: string; subject: string; status: string; machine: string; serialNumber: string; createdOn: string; updatedOn: string }): TicketSummary {
  return {
    id: raw.id, type: ticketType(raw.type), subject: raw.subject, status: ticketStatus(raw.status),
    machine: raw.machine, serialNumber: raw.serialNumber, createdOn: raw.createdOn, updatedOn: raw.updatedOn,
  };
}

export function toAttachment(raw: Attachment): Attachment {
  return { id: raw.id, fileName: raw.fileName, contentType: raw.contentType, size: raw.size, createdOn: raw.createdOn, uploadedBy: raw.uploadedBy, url: raw.url };
}

/**
 * A ticket with its replies and comments as one conversation, oldest first (ties: replies first,
 * then by id, so the order is stable).
 */
export function toTicket(raw: RawTicketT): Ticket {
  const conversation = [...raw.replies, ...raw.comments].sort((a, b) => a.createdOn.localeCompare(b.createdOn) || Number(b.fromKomax) - Number(a.fromKomax) || a.id.localeCompare(b.id));
  return {
    ...toTicketSummary(raw),
    description: raw.description,
    closedOn: raw.closedOn,
    closingReason: closingReason(raw.closingReason),
    closingComment: raw.closingComment,
    concern: raw.concern,
    contact: raw.contact,
    location: raw.location,
    conversation,
    attachments: raw.attachments.map(toAttachment),
  };
}

export function toMachine(raw: RawMachineT): Machine {
  return {
    id: raw.id, name: raw.name, model: raw.model, serialNumber: raw.serialNumber, installedOn: raw.installedOn,
    softwareVersion: raw.softwareVersion, location: raw.location,
    warranty: { state: contractState(raw.warranty.state), endsOn: raw.warranty.endsOn },
    serviceContract: { state: contractState(raw.serviceContract.state), name: raw.serviceContract.name, endsOn: raw.serviceContract.endsOn },
    openTicketCount: raw.openTicketCount,
    openTickets: raw.openTickets.map((t) => ({ id: t.id, subject: t.subject, status: ticketStatus(t.status), createdOn: t.createdOn })),
  };
}

/** A payload's `errors`: validation errors keep their field, the others belong to the whole form. */
export function toFieldErrors(errors: RawUserErrorT[]): FieldError[] {
  return errors.map((e) => ({ field: e.field ?? null, code: e.code ?? e.__typename, message: e.message }));
}
