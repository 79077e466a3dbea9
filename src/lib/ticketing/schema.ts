import * as v from 'valibot';

/**
 * valibot schemas of the ticketing API's answers (emulators/ticketing/schema.graphql), checked at
 * the boundary before map.ts turns them into our types. Enums are kept open (`v.string()`): a new
 * status or type from the service must not break the list; map.ts decides what to do with it.
 */

const Str = v.string();
const NullableStr = v.nullish(v.string(), null);

export const RawLocation = v.object({ id: Str, name: Str, street: Str, postalCode: Str, city: Str, country: Str });
export const RawContact = v.object({ id: Str, name: Str, email: Str, phone: Str });
export const RawMessage = v.object({ id: Str, author: Str, fromKomax: v.boolean(), body: Str, createdOn: Str });
export const RawAttachment = v.object({ id: Str, fileName: Str, contentType: Str, size: v.number(), createdOn: Str, uploadedBy: Str, url: Str });
export const RawTicketSummary = v.object({ id: Str, type: Str, subject: Str, status: Str, machine: Str, serialNumber: Str, createdOn: Str, updatedOn: Str });
export const RawTicket = v.object({
  ...RawTicketSummary.entries,
  description: Str,
  closedOn: NullableStr,
  closingReason: NullableStr,
  closingComment: NullableStr,
  concern: v.nullish(v.object({ id: Str, name: Str, model: Str, serialNumber: Str }), null),
  contact: RawContact,
  location: RawLocation,
  replies: v.array(RawMessage),
  comments: v.array(RawMessage),
  attachments: v.array(RawAttachment),
});
const PageInfo = v.object({ hasNextPage: v.boolean(), hasPreviousPage: v.boolean(), startCursor: NullableStr, endCursor: NullableStr });

export const TicketsData = v.object({
  tickets: v.object({ totalCount: v.number(), pageInfo: PageInfo, nodes: v.array(RawTicketSummary) }),
});
export const TicketData = v.object({ ticket: v.nullable(RawTicket) });
export const TicketFormData = v.object({
  locations: v.array(RawLocation),
  ticketTypes: v.array(v.object({ type: Str, name: Str, description: Str })),
  machines: v.object({ nodes: v.array(v.object({ id: Str, name: Str, model: Str, serialNumber: Str, location: v.object({ id: Str }) })) }),
});
export const RawMachine = v.object({
  id: Str, name: Str, model: Str, serialNumber: Str, installedOn: NullableStr, softwareVersion: Str,
  location: RawLocation,
  warranty: v.object({ state: Str, endsOn: NullableStr }),
  serviceContract: v.object({ state: Str, name: NullableStr, endsOn: NullableStr }),
  openTicketCount: v.number(),
  openTickets: v.array(v.object({ id: Str, subject: Str, status: Str, createdOn: Str })),
});
export const MachinesData = v.object({
  locations: v.array(RawLocation),
  machines: v.object({ totalCount: v.number(), pageInfo: PageInfo, nodes: v.array(RawMachine) }),
});
const RawVersion = v.object({ version: Str, releasedOn: Str, releaseNotes: Str, fileName: Str, size: v.number(), sha256: Str, downloadUrl: Str });
export const WireFlowData = v.object({
  wireFlow: v.variant('__typename', [
    v.object({ __typename: v.literal('WireFlowCloud'), entryPointUrl: Str }),
    v.object({ __typename: v.literal('WireFlowOnPrem'), packages: v.array(v.object({ id: Str, name: Str, description: Str, versions: v.array(RawVersion) })) }),
  ]),
});
const RawUserError = v.object({ __typename: Str, message: Str, field: v.optional(Str), code: v.optional(Str) });
export const CreateTicketData = v.object({
  createTicket: v.object({ ticket: v.nullable(v.object({ id: Str })), errors: v.array(RawUserError) }),
});
export const AddCommentData = v.object({ addComment: v.object({ ticket: v.nullable(RawTicket), errors: v.array(RawUserError) }) });
export const CloseTicketData = v.object({ closeTicket: v.object({ ticket: v.nullable(RawTicket), errors: v.array(RawUserError) }) });
export const AddAttachmentData = v.object({ addAttachment: v.object({ attachment: v.nullable(RawAttachment), errors: v.array(RawUserError) }) });

/** Any GraphQL answer: data and errors (spec §7: "GraphQL responses hold data, errors and status"). */
export const GraphQLAnswer = v.object({
  data: v.optional(v.unknown()),
  errors: v.optional(v.array(v.object({ message: v.optional(v.string()), extensions: v.optional(v.record(v.string(), v.unknown())) }))),
});
/** The proxy's own refusals (401, 413, 415, 502, 503): `{ error, message }`. */
export const ProxyRefusal = v.object({ error: v.string(), message: v.string() });

export type RawTicketT = v.InferOutput<typeof RawTicket>;
export type RawMachineT = v.InferOutput<typeof RawMachine>;
export type RawUserErrorT = v.InferOutput<typeof RawUserError>;
