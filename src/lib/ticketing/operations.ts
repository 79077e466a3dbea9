/**
 * The allow-list of the tickets proxy (issue 28): the browser may send only the app's own ticketing
 * operations (documents.ts), never arbitrary GraphQL. A document is compared with the app's own
 * after both went through the GraphQL parser and printer, so whitespace, commas and comments do not
 * matter but every field, argument, alias and fragment does. Before that comparison a request is
 * checked for what makes a GraphQL request expensive or revealing (introspection, nesting,
 * aliases), so that each refusal says what was wrong, and the parser itself is bounded (size,
 * tokens) so that a hostile document costs little to refuse.
 */
import { Kind, parse, print, type DefinitionNode, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import {
  ADD_ATTACHMENT_MUTATION, ADD_COMMENT_MUTATION, CLOSE_TICKET_MUTATION, CREATE_TICKET_MUTATION, MACHINES_QUERY, TICKET_FORM_QUERY, TICKET_QUERY,
  TICKETS_QUERY, WIRE_FLOW_QUERY,
} from './documents.ts';

/** The operations the proxy forwards, by operation name: every document the app sends (ticketing-service.ts). */
export const TICKETING_OPERATIONS: Readonly<Record<string, string>> = {
  Tickets: TICKETS_QUERY,
  Ticket: TICKET_QUERY,
  TicketForm: TICKET_FORM_QUERY,
  Machines: MACHINES_QUERY,
  WireFlow: WIRE_FLOW_QUERY,
  CreateTicket: CREATE_TICKET_MUTATION,
  AddComment: ADD_COMMENT_MUTATION,
  CloseTicket: CLOSE_TICKET_MUTATION,
  AddAttachment: ADD_ATTACHMENT_MUTATION,
};

/** Longest document taken (the app's longest is about 1.3 KB). */
export const MAX_DOCUMENT_CHARS = 16 * 1024;
/** Parser tokens at most (the app's largest document has a few hundred). */
export const MAX_DOCUMENT_TOKENS = 2_000;
/** Deepest field nesting, fragments expanded (the app's deepest operation nests 4 levels). */
export const MAX_DEPTH = 8;
/** Aliases at most, fragments expanded (the app uses none): aliases repeat a field under new names. */
export const MAX_ALIASES = 4;

export type OperationCheck =
  /** One of the app's operations: its name and the app's own document, to be sent instead of the client's text. */
  | { ok: true; name: string; document: string }
  | { ok: false; reason: string };

const refuse = (reason: string): OperationCheck => ({ ok: false, reason });

const normalized = (document: string): string => print(parse(document, { noLocation: true }));
const KNOWN = new Map(Object.entries(TICKETING_OPERATIONS).map(([name, doc]) => [name, normalized(doc)]));

const UNKNOWN = `Only the app's own ticketing operations pass the tickets proxy: ${[...KNOWN.keys()].join(', ')}.`;

/** Depth and alias count of a selection set with fragments expanded (each fragment measured once). */
function measure(doc: DocumentNode): { depth: number; aliases: number; cycle: boolean; introspection: boolean } {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const memo = new Map<string, { depth: number; aliases: number }>();
  const visiting = new Set<string>();
  let cycle = false;
  let introspection = false;
  // Counts stop growing past the limits: a fragment spread many times cannot make them overflow.
  const cap = (n: number) => Math.min(n, MAX_ALIASES + 1);
  const ofSet = (set: SelectionSetNode | undefined): { depth: number; aliases: number } => {
    let depth = 0;
    let aliases = 0;
    for (const s of set?.selections ?? []) {
      if (s.kind === Kind.FIELD) {
        if (s.name.value === '__schema' || s.name.value === '__type') introspection = true;
        const inner = ofSet(s.selectionSet);
        depth = Math.max(depth, 1 + inner.depth);
        aliases = cap(aliases + (s.alias ? 1 : 0) + inner.aliases);
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        const inner = ofSet(s.selectionSet);
        depth = Math.max(depth, inner.depth);
        aliases = cap(aliases + inner.aliases);
      } else {
        const name = s.name.value;
        let inner = memo.get(name);
        if (!inner) {
          const fragment = fragments.get(name);
          if (!fragment || visiting.has(name)) {
            if (fragment) cycle = true;
            continue;
          }
          visiting.add(name);
          inner = ofSet(fragment.selectionSet);
          visiting.delete(name);
          memo.set(name, inner);
        }
        depth = Math.max(depth, inner.depth);
        aliases = cap(aliases + inner.aliases);
      }
    }
    return { depth, aliases };
  };
  let depth = 0;
  let aliases = 0;
  for (const d of doc.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    const m = ofSet(d.selectionSet);
    depth = Math.max(depth, m.depth);
    aliases = cap(aliases + m.aliases);
  }
  // Fragments no operation spreads are measured too: they still cost the service its validation.
  for (const f of fragments.values()) {
    if (memo.has(f.name.value)) continue;
    visiting.add(f.name.value);
    const m = ofSet(f.selectionSet);
    visiting.delete(f.name.value);
    depth = Math.max(depth, m.depth);
    aliases = cap(aliases + m.aliases);
  }
  return { depth, aliases, cycle, introspection };
}

const isOperation = (d: DefinitionNode): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION;

/**
 * Whether a request's `query` (and `operationName`, when given) is one of the app's operations.
 *
 * @example checkOperation(TICKETS_QUERY) // { ok: true, name: 'Tickets', document: TICKETS_QUERY }
 * @example checkOperation('{ __schema { types { name } } }') // { ok: false, reason: 'Introspection is not available …' }
 */
export function checkOperation(query: string, operationName?: string | null): OperationCheck {
  if (query.length > MAX_DOCUMENT_CHARS) return refuse(`The query is too long: at most ${MAX_DOCUMENT_CHARS.toLocaleString('en')} characters.`);
  let doc: DocumentNode;
  try {
    doc = parse(query, { noLocation: true, maxTokens: MAX_DOCUMENT_TOKENS });
  } catch (err) {
    const message = (err as Error).message;
    if (/contains more th\w+ \d+ tokens/i.test(message)) return refuse(`The query is too long: at most ${MAX_DOCUMENT_TOKENS.toLocaleString('en')} tokens.`);
    return refuse(`The query is not valid GraphQL: ${message.slice(0, 200)}`);
  }
  const m = measure(doc);
  if (m.introspection) return refuse('Introspection (__schema, __type) is not available through the tickets proxy.');
  if (m.cycle) return refuse('The query\'s fragments spread each other in a cycle.');
  if (m.depth > MAX_DEPTH) return refuse(`The query nests fields ${m.depth} levels deep: at most ${MAX_DEPTH}.`);
  if (m.aliases > MAX_ALIASES) return refuse(`The query uses more than ${MAX_ALIASES} aliases.`);
  const operations = doc.definitions.filter(isOperation);
  if (operations.length !== 1) return refuse(`Send exactly one operation per request. ${UNKNOWN}`);
  const name = operations[0]!.name?.value;
  const known = name ? KNOWN.get(name) : undefined;
  if (!name || !known) return refuse(UNKNOWN);
  if (operationName != null && operationName !== name) return refuse(`operationName "${operationName.slice(0, 50)}" does not match the document's operation "${name}".`);
  if (print(doc) !== known) return refuse(`The document of ${name} differs from the app's own; send it unchanged.`);
  return { ok: true, name, document: TICKETING_OPERATIONS[name]! };
}
