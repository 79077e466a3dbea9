/**
 * The GraphQL documents the app sends to the ticketing API (emulators/ticketing/schema.graphql),
 * built from fragments so a list and a detail ask for the same fields the same way.
 */

const LOCATION = /* GraphQL */ `fragment LocationFields on Location { id name street postalCode city country }`;
const CONTACT = /* GraphQL */ `fragment ContactFields on Contact { id name email phone }`;
const MESSAGE = /* GraphQL */ `fragment MessageFields on TicketMessage { id author fromKomax body createdOn }`;
const ATTACHMENT = /* GraphQL */ `fragment AttachmentFields on Attachment { id fileName contentType size createdOn uploadedBy url }`;
const TICKET_SUMMARY = /* GraphQL */ `fragment TicketSummaryFields on Ticket { id type subject status machine serialNumber createdOn updatedOn }`;
const PAYLOAD_ERRORS = /* GraphQL */ `fragment UserErrorFields on UserError { __typename message ... on ValidationError { field code } }`;
const MACHINE = /* GraphQL */ `fragment MachineFields on Machine {
  id name model serialNumber installedOn softwareVersion
  location { ...LocationFields }
  warranty { state endsOn }
  serviceContract { state name endsOn }
  openTicketCount
  openTickets { id subject status createdOn }
}`;
const TICKET_DETAIL = /* GraphQL */ `fragment TicketDetailFields on Ticket {
  ...TicketSummaryFields
  description closedOn closingReason closingComment
  concern { id name model serialNumber }
  contact { ...ContactFields }
  location { ...LocationFields }
  replies { ...MessageFields }
  comments { ...MessageFields }
  attachments { ...AttachmentFields }
}`;
const DETAIL_FRAGMENTS = [TICKET_DETAIL, TICKET_SUMMARY, CONTACT, LOCATION, MESSAGE, ATTACHMENT].join('\n');

export const TICKETS_QUERY = /* GraphQL */ `query Tickets($filter: TicketFilter, $orderBy: TicketOrder, $first: Int, $after: String, $last: Int, $before: String) {
  tickets(filter: $filter, orderBy: $orderBy, first: $first, after: $after, last: $last, before: $before) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    nodes { ...TicketSummaryFields }
  }
}
${TICKET_SUMMARY}`;

export const TICKET_QUERY = /* GraphQL */ `query Ticket($id: ID!) {
  ticket(id: $id) { ...TicketDetailFields }
}
${DETAIL_FRAGMENTS}`;

export const TICKET_FORM_QUERY = /* GraphQL */ `query TicketForm {
  locations { ...LocationFields }
  ticketTypes { type name description }
  machines(first: 100) { nodes { id name model serialNumber location { id } } }
}
${LOCATION}`;

export const MACHINES_QUERY = /* GraphQL */ `query Machines($filter: MachineFilter, $first: Int, $after: String) {
  locations { ...LocationFields }
  machines(filter: $filter, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    nodes { ...MachineFields }
  }
}
${MACHINE}
${LOCATION}`;

export const WIRE_FLOW_QUERY = /* GraphQL */ `query WireFlow {
  wireFlow {
    __typename
    ... on WireFlowCloud { entryPointUrl }
    ... on WireFlowOnPrem {
      packages {
        id name description
        versions { version releasedOn releaseNotes fileName size sha256 downloadUrl }
      }
    }
  }
}`;

export const CREATE_TICKET_MUTATION = /* GraphQL */ `mutation CreateTicket($input: CreateTicketInput!) {
  createTicket(input: $input) { ticket { id } errors { ...UserErrorFields } }
}
${PAYLOAD_ERRORS}`;

export const ADD_COMMENT_MUTATION = /* GraphQL */ `mutation AddComment($input: AddCommentInput!) {
  addComment(input: $input) { ticket { ...TicketDetailFields } errors { ...UserErrorFields } }
}
${DETAIL_FRAGMENTS}
${PAYLOAD_ERRORS}`;

export const CLOSE_TICKET_MUTATION = /* GraphQL */ `mutation CloseTicket($input: CloseTicketInput!) {
  closeTicket(input: $input) { ticket { ...TicketDetailFields } errors { ...UserErrorFields } }
}
${DETAIL_FRAGMENTS}
${PAYLOAD_ERRORS}`;

/** Sent as a GraphQL multipart request: the file goes in `variables.file`. */
export const ADD_ATTACHMENT_MUTATION = /* GraphQL */ `mutation AddAttachment($ticketId: ID!, $file: Upload!) {
  addAttachment(ticketId: $ticketId, file: $file) { attachment { ...AttachmentFields } errors { ...UserErrorFields } }
}
${ATTACHMENT}
${PAYLOAD_ERRORS}`;

/**
 * The operations that create something: the ticket screens send each with an Idempotency-Key
 * (made when the form or file was opened), which the proxy passes on to the service. For the
 * proxy's operation allow-list: a request of these without a key should be refused with 400
 * (docs/operations.md "Idempotency").
 */
export const KEYED_OPERATIONS = ['CreateTicket', 'AddComment', 'AddAttachment'] as const;
