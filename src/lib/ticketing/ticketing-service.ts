import * as v from 'valibot';
import {
  ADD_ATTACHMENT_MUTATION, ADD_COMMENT_MUTATION, CLOSE_TICKET_MUTATION, CREATE_TICKET_MUTATION, MACHINES_QUERY, TICKET_FORM_QUERY, TICKET_QUERY,
  TICKETS_QUERY, WIRE_FLOW_QUERY,
} from './documents.ts';
import { formatIdempotencyKey, IDEMPOTENCY_HEADER } from '../idempotency/key.ts';
import { graphQLErrorMessage, TicketingError, type TicketingGraphQLError } from './errors.ts';
import { toAttachment, toFieldErrors, toMachine, toTicket, toTicketSummary, ticketType } from './map.ts';
import {
  AddAttachmentData, AddCommentData, CloseTicketData, CreateTicketData, GraphQLAnswer, MachinesData, ProxyRefusal, TicketData, TicketFormData,
  TicketsData, WireFlowData,
} from './schema.ts';
import type {
  Attachment, ClosingReason, CreateTicketInput, Machine, MachineQuery, MutationResult, Page, Ticket, TicketFormOptions, TicketQuery, TicketSummary,
  TicketType, WireFlow,
} from './types.ts';

/**
 * The typed ticketing operations, for the browser: every call goes to the same-origin tickets
 * proxy (`POST /api/ticketing/graphql`), which adds the identity token and forwards it. The
 * transport is injected (the customer area passes `apiFetch`, tests a fake), so this module
 * knows neither the session nor the service's address.
 */

/** The proxy every call goes through. */
export const PROXY_PATH = '/api/ticketing/graphql';

/** Sends one request to the proxy: `apiFetch(PROXY_PATH, init)` in the app. */
export type ProxySend = (init: RequestInit) => Promise<Response>;
/** Sends a multipart request with upload progress (XMLHttpRequest in the app): the status and the body text. */
export type ProxyUpload = (body: FormData, onProgress: (loaded: number, total: number) => void, signal?: AbortSignal, headers?: Record<string, string>) => Promise<{ status: number; body: string }>;

/** The header of a write made once per key (the caller keeps the key across retries; see lib/idempotency). */
const keyHeader = (key: string | undefined): Record<string, string> => (key ? { [IDEMPOTENCY_HEADER]: formatIdempotencyKey(key) } : {});

/** The status, GraphQL errors and data of an answer; throws the spec's error for a failed one. */
export function readAnswer<S extends v.GenericSchema>(operation: string, status: number, body: unknown, schema: S): v.InferOutput<S> {
  const refusal = v.safeParse(ProxyRefusal, body);
  if (refusal.success && status >= 400) {
    throw new TicketingError(refusal.output.message, { operation, status, failure: status >= 500 ? 'unavailable' : 'answer' });
  }
  const answer = v.safeParse(GraphQLAnswer, body);
  if (!answer.success) {
    throw new TicketingError(graphQLErrorMessage(undefined, status), { operation, status, failure: status >= 500 ? 'unavailable' : 'invalid' });
  }
  const errors = (answer.output.errors ?? []) as TicketingGraphQLError[];
  if (errors.length || status >= 400) {
    throw new TicketingError(graphQLErrorMessage(errors, status), { operation, status, graphQLErrors: errors, failure: status >= 500 ? 'unavailable' : 'answer' });
  }
  const data = v.safeParse(schema, answer.output.data);
  if (!data.success) {
    throw new TicketingError(`Unexpected answer of ${operation}: ${v.getDotPath(data.issues[0]) ?? ''} ${data.issues[0].message}`.trim(), { operation, status, failure: 'invalid' });
  }
  return data.output;
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The variables of the ticket list query (empty values left out). */
export function ticketsVariables(q: TicketQuery): Record<string, unknown> {
  const size = q.pageSize ?? 20;
  const filter: Record<string, unknown> = {};
  if (q.status?.length) filter.status = q.status;
  if (q.search?.trim()) filter.search = q.search.trim();
  if (q.machineId) filter.machineId = q.machineId;
  return {
    ...(Object.keys(filter).length ? { filter } : {}),
    ...(q.sort ? { orderBy: q.sort } : {}),
    ...(q.before ? { last: size, before: q.before } : { first: size, ...(q.after ? { after: q.after } : {}) }),
  };
}

function machinesVariables(q: MachineQuery): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (q.search?.trim()) filter.search = q.search.trim();
  if (q.locationId) filter.locationId = q.locationId;
  if (q.warranty) filter.warranty = q.warranty;
  if (q.serviceContract) filter.serviceContract = q.serviceContract;
  if (q.hasOpenTickets !== undefined) filter.hasOpenTickets = q.hasOpenTickets;
  return { first: 100, ...(Object.keys(filter).length ? { filter } : {}) };
}

const blankToNull = (s: string | undefined) => (s?.trim() ? s.trim() : null);

export function createTicketingClient(transport: { send: ProxySend; upload?: ProxyUpload }) {
  async function call<S extends v.GenericSchema>(operation: string, query: string, variables: Record<string, unknown>, schema: S, key?: string): Promise<v.InferOutput<S>> {
    let res: Response;
    try {
      res = await transport.send({
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...keyHeader(key) },
        body: JSON.stringify({ operationName: operation, query, variables }),
      });
    } catch (err) {
      throw new TicketingError((err as Error).message || 'Failed to fetch', { operation, failure: 'unavailable', cause: err });
    }
    return readAnswer(operation, res.status, parseJson(await res.text().catch(() => '')), schema);
  }

  return {
    async tickets(q: TicketQuery = {}): Promise<Page<TicketSummary>> {
      const { tickets } = await call('Tickets', TICKETS_QUERY, ticketsVariables(q), TicketsData);
      return { items: tickets.nodes.map(toTicketSummary), totalCount: tickets.totalCount, ...tickets.pageInfo };
    },
    /** The ticket, or null when the caller's organisation has none with this id. */
    async ticket(id: string): Promise<Ticket | null> {
      try {
        const { ticket } = await call('Ticket', TICKET_QUERY, { id }, TicketData);
        return ticket ? toTicket(ticket) : null;
      } catch (err) {
        if (err instanceof TicketingError && err.notFound) return null;
        throw err;
      }
    },
    async ticketForm(): Promise<TicketFormOptions> {
      const d = await call('TicketForm', TICKET_FORM_QUERY, {}, TicketFormData);
      return {
        locations: d.locations,
        ticketTypes: d.ticketTypes.map((t) => ticketType(t.type)).filter((t): t is TicketType => t !== null),
        machines: d.machines.nodes.map((m) => ({ id: m.id, name: m.name, model: m.model, serialNumber: m.serialNumber, locationId: m.location.id })),
      };
    },
    async machines(q: MachineQuery = {}): Promise<{ locations: TicketFormOptions['locations']; machines: Machine[]; totalCount: number }> {
      const d = await call('Machines', MACHINES_QUERY, machinesVariables(q), MachinesData);
      return { locations: d.locations, machines: d.machines.nodes.map(toMachine), totalCount: d.machines.totalCount };
    },
    async wireFlow(): Promise<WireFlow> {
      const { wireFlow } = await call('WireFlow', WIRE_FLOW_QUERY, {}, WireFlowData);
      return wireFlow.__typename === 'WireFlowCloud'
        ? { userType: 'cloud', entryPointUrl: wireFlow.entryPointUrl }
        : { userType: 'onprem', packages: wireFlow.packages };
    },
    /** Creates a ticket; `key` (made when the form opened, kept across retries) makes a retry return the same ticket. */
    async createTicket(input: CreateTicketInput, key?: string): Promise<MutationResult<{ id: string }>> {
      const variables = {
        input: {
          locationId: blankToNull(input.locationId), type: input.type || null, machineId: blankToNull(input.machineId),
          subject: input.subject, description: input.description,
          machineName: blankToNull(input.machineName), serialNumber: blankToNull(input.serialNumber),
        },
      };
      const { createTicket: p } = await call('CreateTicket', CREATE_TICKET_MUTATION, variables, CreateTicketData, key);
      return p.errors.length || !p.ticket ? { ok: false, errors: toFieldErrors(p.errors) } : { ok: true, value: p.ticket };
    },
    /** Adds a comment; with `key`, a retry adds it once. */
    async addComment(ticketId: string, body: string, key?: string): Promise<MutationResult<Ticket>> {
      const { addComment: p } = await call('AddComment', ADD_COMMENT_MUTATION, { input: { ticketId, body } }, AddCommentData, key);
      return p.errors.length || !p.ticket ? { ok: false, errors: toFieldErrors(p.errors) } : { ok: true, value: toTicket(p.ticket) };
    },
    async closeTicket(ticketId: string, reason: ClosingReason, comment: string): Promise<MutationResult<Ticket>> {
      const input = { ticketId, reason, ...(comment.trim() ? { comment: comment.trim() } : {}) };
      const { closeTicket: p } = await call('CloseTicket', CLOSE_TICKET_MUTATION, { input }, CloseTicketData);
      return p.errors.length || !p.ticket ? { ok: false, errors: toFieldErrors(p.errors) } : { ok: true, value: toTicket(p.ticket) };
    },
    /** Uploads one file (GraphQL multipart request) with progress; needs the `upload` transport. With `key`, a retry attaches it once. */
    async addAttachment(ticketId: string, file: Blob & { name?: string }, onProgress: (loaded: number, total: number) => void = () => {}, signal?: AbortSignal, key?: string): Promise<MutationResult<Attachment>> {
      if (!transport.upload) throw new Error('This ticketing client has no upload transport');
      const operation = 'AddAttachment';
      const form = attachmentForm(ticketId, file);
      let answer: { status: number; body: string };
      try {
        answer = await transport.upload(form, onProgress, signal, keyHeader(key));
      } catch (err) {
        throw new TicketingError((err as Error).message || 'Failed to fetch', { operation, failure: 'unavailable', cause: err });
      }
      const { addAttachment: p } = readAnswer(operation, answer.status, parseJson(answer.body), AddAttachmentData);
      return p.errors.length || !p.attachment ? { ok: false, errors: toFieldErrors(p.errors) } : { ok: true, value: toAttachment(p.attachment) };
    },
  };
}

export type TicketingClient = ReturnType<typeof createTicketingClient>;

/**
 * The GraphQL multipart request (operations, map, file) adding one attachment.
 * @example attachmentForm('SR-100001', file) // fields: operations, map {"0":["variables.file"]}, 0
 */
export function attachmentForm(ticketId: string, file: Blob & { name?: string }): FormData {
  const form = new FormData();
  form.append('operations', JSON.stringify({ operationName: 'AddAttachment', query: ADD_ATTACHMENT_MUTATION, variables: { ticketId, file: null } }));
  form.append('map', JSON.stringify({ 0: ['variables.file'] }));
  form.append('0', file, file.name ?? 'file');
  return form;
}
