// The resolvers of schema.graphql over the store. Every read and write is scoped to the caller's
// organisation (from the ticketing system's contact records); another organisation's record is
// NOT_FOUND, exactly like one that does not exist.
import { randomUUID } from 'node:crypto';
import { createGraphQLError } from 'graphql-yoga';
import * as v from 'valibot';
import type { Caller } from './auth.ts';
import {
  CLOSING_REASONS, TICKET_TYPES, type Attachment, type ClosingReason, type Contact, type Direction, type Keyset, type Machine,
  type Message, type PageRequest, type Page, type Ticket, type TicketingStore, type TicketSortField, type TicketStatus, type TicketType,
} from './store.ts';
import { discardStaged, keepStaged, MAX_FILES_PER_REQUEST, type StagedFile } from './uploads.ts';

export const ONPREM_ROLE = 'kmx_artemis_onpremuser';

/** What every resolver gets: the verified caller, their contact (if any) and the files of a multipart request. */
export interface TicketingContext {
  caller: Caller;
  contact: Contact | undefined;
  /** Files staged by the multipart handler, by the key its variables carry as `{ "$staged": key }`. */
  staged: Map<string, StagedFile>;
  /** The request's logger (its level from `x-debug-level`). */
  log?: (level: 'error' | 'warn' | 'info' | 'debug', message: string) => void;
}

export interface ResolverDeps {
  store: TicketingStore;
  /** Absolute URL of a path of the emulator (download links). */
  abs(path: string): string;
  attachmentsDir: string;
  now?: () => Date;
}

// ---- errors ----
// createGraphQLError makes the GraphQLError class yoga checks against (a test runner may load a second copy of graphql).
const error = (code: string, message: string) => createGraphQLError(message, { extensions: { code } });
const notFound = (what: string, id: string) => error('NOT_FOUND', `No ${what} ${id}`);
const badInput = (message: string) => error('BAD_USER_INPUT', message);

/** The caller's organisation id, or FORBIDDEN for a caller the ticketing system does not know. */
function orgOf(ctx: TicketingContext): string {
  if (!ctx.contact) throw error('FORBIDDEN', 'You are not a contact of any customer organisation in the ticketing system');
  return ctx.contact.organisationId;
}

// ---- cursors ----
const CursorData = v.object({ s: v.string(), v: v.union([v.string(), v.number()]), t: v.union([v.string(), v.number()]) });

/** An opaque cursor: the sort it belongs to and the row's keyset position. */
export function encodeCursor(sort: string, key: Keyset): string {
  return Buffer.from(JSON.stringify({ s: sort, v: key.value, t: key.tie })).toString('base64url');
}

function decodeCursor(sort: string, cursor: string | null | undefined, arg: string): Keyset | undefined {
  if (cursor === undefined || cursor === null) return undefined;
  let data: v.InferOutput<typeof CursorData>;
  try {
    data = v.parse(CursorData, JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw badInput(`"${arg}" is not a cursor of this list`);
  }
  if (data.s !== sort) throw badInput(`"${arg}" is a cursor of another order; start again from the first page`);
  return { value: data.v, tie: data.t };
}

interface PageArgs { first?: number | null; after?: string | null; last?: number | null; before?: string | null }

function pageRequest(sort: string, args: PageArgs): PageRequest {
  const count = (n: number | null | undefined, name: string) => {
    if (n === undefined || n === null) return undefined;
    if (n < 1 || n > 100) throw badInput(`"${name}" must be between 1 and 100`);
    return n;
  };
  const first = count(args.first, 'first');
  const last = count(args.last, 'last');
  if (first !== undefined && last !== undefined) throw badInput('Give "first" or "last", not both');
  return { first, last, after: decodeCursor(sort, args.after, 'after'), before: decodeCursor(sort, args.before, 'before') };
}

function connection<T>(sort: string, page: Page<T>) {
  const edges = page.rows.map(({ row, key }) => ({ cursor: encodeCursor(sort, key), node: row }));
  return {
    edges,
    nodes: edges.map((e) => e.node),
    totalCount: page.total,
    pageInfo: { hasNextPage: page.hasNext, hasPreviousPage: page.hasPrevious, startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null },
  };
}

// ---- input validation (the ticket form's messages, spec §5) ----
export const MESSAGES = {
  location: 'Please select a location',
  type: 'Please select a ticket type',
  machine: 'Please select a machine concerned',
  subject: 'Please enter the subject',
  description: 'Please enter the description',
  comment: 'Please enter a comment',
} as const;

const Required = (message: string, max: number, label: string) => v.pipe(
  v.nullish(v.string(), ''), v.trim(), v.nonEmpty(message), v.maxLength(max, `The ${label} must be at most ${max.toLocaleString('en')} characters`),
);
const Optional = (max: number, label: string) => v.pipe(v.nullish(v.string(), ''), v.trim(), v.maxLength(max, `The ${label} must be at most ${max} characters`));
const Choice = (message: string) => v.pipe(v.nullish(v.string(), ''), v.nonEmpty(message));

const CreateTicketInput = v.object({
  locationId: Choice(MESSAGES.location),
  type: v.pipe(v.nullish(v.string(), ''), v.nonEmpty(MESSAGES.type), v.picklist(TICKET_TYPES, MESSAGES.type)),
  machineId: Choice(MESSAGES.machine),
  subject: Required(MESSAGES.subject, 200, 'subject'),
  description: Required(MESSAGES.description, 20_000, 'description'),
  machineName: Optional(200, 'machine name'),
  serialNumber: Optional(100, 'serial number'),
  attachments: v.nullish(v.array(v.unknown()), []),
});
const CommentBody = Required(MESSAGES.comment, 20_000, 'comment');
const ClosingComment = Optional(20_000, 'comment');

interface FieldError { __typename: 'ValidationError'; field: string; code: string; message: string }

function fieldErrors(issues: v.BaseIssue<unknown>[]): FieldError[] {
  return issues.map((issue) => ({
    __typename: 'ValidationError',
    field: v.getDotPath(issue) ?? 'input',
    code: issue.type === 'max_length' ? 'TOO_LONG' : 'REQUIRED',
    message: issue.message,
  }));
}

const unknownRef = (field: string, message: string): FieldError => ({ __typename: 'ValidationError', field, code: 'UNKNOWN', message });
const ticketNotFound = (id: string) => ({ __typename: 'NotFoundError', message: `No ticket ${id}` });
const ticketClosed = (id: string) => ({ __typename: 'TicketClosedError', message: `Ticket ${id} is closed` });

/** The staged file an Upload variable refers to (only files of this very request). */
function stagedFile(ctx: TicketingContext, value: unknown): StagedFile | undefined {
  const key = typeof value === 'object' && value !== null ? (value as { $staged?: unknown }).$staged : undefined;
  return typeof key === 'string' ? ctx.staged.get(key) : undefined;
}

/** The Upload scalar (graphql-tools' scalar resolver form): a value only the multipart handler can supply. */
const Upload = {
  __parseValue: (value: unknown) => value,
  __parseLiteral: () => {
    throw createGraphQLError('An Upload cannot be written in the query; send the file as a multipart request');
  },
  __serialize: () => {
    throw createGraphQLError('Upload is an input type');
  },
};

const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const stateOf = (endsOn: string | null, today: string) => (endsOn === null ? 'NONE' : endsOn >= today ? 'ACTIVE' : 'EXPIRED');

export function createResolvers(deps: ResolverDeps) {
  const { store } = deps;
  const now = deps.now ?? (() => new Date());

  const ticketOf = (ctx: TicketingContext, id: string): Ticket => {
    const ticket = store.ticket(orgOf(ctx), id);
    if (!ticket) throw notFound('ticket', id);
    return ticket;
  };

  /** Stores staged files as attachments of a ticket (renamed into attachments/, then recorded). */
  const attach = async (ticketId: string, files: StagedFile[], ctx: TicketingContext): Promise<Attachment[]> => {
    const at = now().toISOString();
    const kept: Attachment[] = [];
    try {
      for (const file of files) {
        const id = randomUUID();
        await keepStaged(file, deps.attachmentsDir, id);
        kept.push({ id, ticketId, fileName: file.fileName, contentType: file.contentType, size: file.size, createdOn: at, uploadedBy: ctx.contact!.name });
      }
      store.transaction(() => { for (const a of kept) store.addAttachment(a); });
      return kept;
    } catch (err) {
      await discardStaged(kept.map((a) => ({ path: `${deps.attachmentsDir}/${a.id}`, fileName: a.fileName, contentType: a.contentType, size: a.size })));
      throw err;
    }
  };

  return {
    Upload,
    Query: {
      viewer: async (_: unknown, __: unknown, ctx: TicketingContext) => ({
        id: ctx.caller.sub,
        contact: ctx.contact ?? null,
        organisation: ctx.contact ? store.organisation(ctx.contact.organisationId) : null,
        wireFlowUserType: (await ctx.caller.roles()).includes(ONPREM_ROLE) ? 'ONPREM' : 'CLOUD',
      }),
      tickets: (_: unknown, args: PageArgs & { filter?: { status?: TicketStatus[] | null; search?: string | null; machineId?: string | null } | null; orderBy?: { field: TicketSortField; direction: Direction } | null }, ctx: TicketingContext) => {
        const organisationId = orgOf(ctx);
        const sort = args.orderBy ?? { field: 'CREATED_ON', direction: 'DESC' };
        const sortName = `${sort.field}:${sort.direction}`;
        const search = args.filter?.search ?? undefined;
        if (search && search.length > 200) throw badInput('"search" must be at most 200 characters');
        const page = store.tickets({ organisationId, status: args.filter?.status ?? undefined, search, machineId: args.filter?.machineId ?? undefined }, sort, pageRequest(sortName, args));
        return connection(sortName, page);
      },
      ticket: (_: unknown, args: { id: string }, ctx: TicketingContext) => ticketOf(ctx, args.id),
      locations: (_: unknown, __: unknown, ctx: TicketingContext) => store.locations(orgOf(ctx)),
      ticketTypes: (_: unknown, __: unknown, ctx: TicketingContext) => { orgOf(ctx); return store.ticketTypes(); },
      machines: (_: unknown, args: PageArgs & { filter?: { search?: string | null; locationId?: string | null; warranty?: string | null; serviceContract?: string | null; hasOpenTickets?: boolean | null } | null }, ctx: TicketingContext) => {
        const organisationId = orgOf(ctx);
        const f = args.filter ?? {};
        if (args.last !== undefined && args.last !== null) throw badInput('"last" is not supported on machines');
        const page = store.machines({
          organisationId, search: f.search ?? undefined, locationId: f.locationId ?? undefined, warranty: f.warranty ?? undefined,
          serviceContract: f.serviceContract ?? undefined, hasOpenTickets: f.hasOpenTickets ?? undefined,
        }, dayOf(now()), pageRequest('NAME:ASC', args));
        return connection('NAME:ASC', page);
      },
      machine: (_: unknown, args: { id: string }, ctx: TicketingContext) => {
        const machine = store.machine(orgOf(ctx), args.id);
        if (!machine) throw notFound('machine', args.id);
        return machine;
      },
      wireFlow: async (_: unknown, __: unknown, ctx: TicketingContext) => {
        if ((await ctx.caller.roles()).includes(ONPREM_ROLE)) return { __typename: 'WireFlowOnPrem', userType: 'ONPREM', packages: store.softwarePackages() };
        return { __typename: 'WireFlowCloud', userType: 'CLOUD', entryPointUrl: store.cloudEntryPoint() };
      },
    },
    Mutation: {
      createTicket: async (_: unknown, args: { input: Record<string, unknown> }, ctx: TicketingContext) => {
        const organisationId = orgOf(ctx);
        const parsed = v.safeParse(CreateTicketInput, args.input, { abortPipeEarly: true });
        const errors: FieldError[] = parsed.success ? [] : fieldErrors(parsed.issues);
        const input = parsed.success ? parsed.output : undefined;
        const has = (field: string) => errors.some((e) => e.field === field);
        const raw = args.input as { locationId?: string; machineId?: string };
        if (raw.locationId && !has('locationId') && !store.location(organisationId, raw.locationId)) errors.push(unknownRef('locationId', MESSAGES.location));
        const machine = raw.machineId && !has('machineId') ? store.machine(organisationId, raw.machineId) : undefined;
        if (raw.machineId && !has('machineId') && !machine) errors.push(unknownRef('machineId', MESSAGES.machine));
        const uploads = (Array.isArray(args.input.attachments) ? args.input.attachments : []) as unknown[];
        const files = uploads.map((u) => stagedFile(ctx, u));
        if (uploads.length > MAX_FILES_PER_REQUEST) errors.push({ __typename: 'ValidationError', field: 'attachments', code: 'TOO_MANY', message: `At most ${MAX_FILES_PER_REQUEST} files can be attached at once` });
        if (files.some((f) => !f)) errors.push({ __typename: 'ValidationError', field: 'attachments', code: 'INVALID', message: 'Attachments must be sent as files of a multipart request' });
        if (errors.length || !input) return { ticket: null, errors };
        const at = now().toISOString();
        const ticket = store.createTicket({
          organisationId, type: input.type as TicketType, subject: input.subject, description: input.description, machineId: machine!.id,
          machineName: input.machineName, serialNumber: input.serialNumber, contactId: ctx.contact!.id, locationId: input.locationId, createdOn: at,
        });
        await attach(ticket.id, files as StagedFile[], ctx);
        return { ticket: store.ticket(organisationId, ticket.id), errors: [] };
      },
      addComment: (_: unknown, args: { input: { ticketId: string; body?: string | null } }, ctx: TicketingContext) => {
        const organisationId = orgOf(ctx);
        const ticket = store.ticket(organisationId, args.input.ticketId);
        if (!ticket) return { ticket: null, comment: null, errors: [ticketNotFound(args.input.ticketId)] };
        const body = v.safeParse(CommentBody, args.input.body);
        if (!body.success) return { ticket: null, comment: null, errors: fieldErrors(body.issues).map((e) => ({ ...e, field: 'body' })) };
        if (ticket.status === 'CLOSED') return { ticket: null, comment: null, errors: [ticketClosed(ticket.id)] };
        const comment = store.addMessage(ticket.id, 'comment', ctx.contact!.name, body.output, now().toISOString());
        return { ticket: store.ticket(organisationId, ticket.id), comment, errors: [] };
      },
      closeTicket: (_: unknown, args: { input: { ticketId: string; reason: ClosingReason; comment?: string | null } }, ctx: TicketingContext) => {
        const organisationId = orgOf(ctx);
        const ticket = store.ticket(organisationId, args.input.ticketId);
        if (!ticket) return { ticket: null, errors: [ticketNotFound(args.input.ticketId)] };
        if (!CLOSING_REASONS.includes(args.input.reason)) return { ticket: null, errors: [unknownRef('reason', 'Please select a reason')] };
        const comment = v.safeParse(ClosingComment, args.input.comment);
        if (!comment.success) return { ticket: null, errors: fieldErrors(comment.issues).map((e) => ({ ...e, field: 'comment' })) };
        if (ticket.status === 'CLOSED') return { ticket: null, errors: [ticketClosed(ticket.id)] };
        const at = now().toISOString();
        store.transaction(() => {
          if (comment.output) store.addMessage(ticket.id, 'comment', ctx.contact!.name, comment.output, at);
          store.closeTicket(ticket.id, args.input.reason, comment.output || null, at);
        });
        return { ticket: store.ticket(organisationId, ticket.id), errors: [] };
      },
      addAttachment: async (_: unknown, args: { ticketId: string; file: unknown }, ctx: TicketingContext) => {
        const organisationId = orgOf(ctx);
        const ticket = store.ticket(organisationId, args.ticketId);
        if (!ticket) return { ticket: null, attachment: null, errors: [ticketNotFound(args.ticketId)] };
        if (ticket.status === 'CLOSED') return { ticket: null, attachment: null, errors: [ticketClosed(ticket.id)] };
        const file = stagedFile(ctx, args.file);
        if (!file) return { ticket: null, attachment: null, errors: [{ __typename: 'ValidationError', field: 'file', code: 'INVALID', message: 'The file must be sent as a multipart request' }] };
        const [attachment] = await attach(ticket.id, [file], ctx);
        return { ticket: store.ticket(organisationId, ticket.id), attachment, errors: [] };
      },
    },
    Ticket: {
      concern: (t: Ticket) => (t.machineId ? store.machine(t.organisationId, t.machineId) ?? null : null),
      machine: (t: Ticket) => t.machineName || (t.machineId && store.machine(t.organisationId, t.machineId)?.name) || '',
      serialNumber: (t: Ticket) => t.serialNumber || (t.machineId && store.machine(t.organisationId, t.machineId)?.serialNumber) || '',
      contact: (t: Ticket) => store.contact(t.contactId),
      location: (t: Ticket) => store.location(t.organisationId, t.locationId),
      replies: (t: Ticket) => store.messages(t.id).filter((m) => m.kind === 'reply'),
      comments: (t: Ticket) => store.messages(t.id).filter((m) => m.kind === 'comment'),
      attachments: (t: Ticket) => store.attachments(t.id),
    },
    TicketMessage: {
      fromKomax: (m: Message) => m.kind === 'reply',
    },
    Attachment: {
      url: (a: Attachment) => deps.abs(`/attachments/${a.id}`),
    },
    Machine: {
      location: (m: Machine) => store.location(m.organisationId, m.locationId),
      warranty: (m: Machine) => ({ state: stateOf(m.warrantyUntil, dayOf(now())), endsOn: m.warrantyUntil }),
      serviceContract: (m: Machine) => ({ state: stateOf(m.contractUntil, dayOf(now())), name: m.contractName, endsOn: m.contractUntil }),
      openTickets: (m: Machine) => store.openTickets(m.id),
      openTicketCount: (m: Machine) => store.openTickets(m.id).length,
    },
    SoftwarePackage: {
      latestVersion: (p: { versions: unknown[] }) => p.versions[0],
    },
    SoftwareVersion: {
      downloadUrl: (x: { packageId: string; version: string }) => deps.abs(`/downloads/wire-flow/${encodeURIComponent(x.packageId)}/${encodeURIComponent(x.version)}`),
    },
  };
}
