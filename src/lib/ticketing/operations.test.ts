import { describe, expect, it } from 'vitest';
import { attachmentForm, createTicketingClient } from './ticketing-service.ts';
import { TICKETS_QUERY, WIRE_FLOW_QUERY } from './documents.ts';
import { checkOperation, MAX_ALIASES, MAX_DEPTH, MAX_DOCUMENT_CHARS, TICKETING_OPERATIONS } from './operations.ts';

/** Every request body the browser's client sends, by calling each of its operations against a recording transport. */
async function sentByTheClient(): Promise<{ operationName: string; query: string }[]> {
  const sent: { operationName: string; query: string }[] = [];
  const client = createTicketingClient({
    send: async (init) => {
      sent.push(JSON.parse(String(init.body)));
      return new Response(JSON.stringify({ data: null }), { status: 200 });
    },
    upload: async (form) => {
      sent.push(JSON.parse(String(form.get('operations'))));
      return { status: 200, body: '{"data":null}' };
    },
  });
  const calls: (() => Promise<unknown>)[] = [
    () => client.tickets({ status: ['NEW'], search: 'x', after: 'c' }), () => client.ticket('SR-1'), () => client.ticketForm(), () => client.machines({ search: 'k' }),
    () => client.wireFlow(), () => client.createTicket({ locationId: 'l', type: 'REPAIR', machineId: 'm', subject: 's', description: 'd' }),
    () => client.addComment('SR-1', 'hi'), () => client.closeTicket('SR-1', 'SOLVED' as never, ''), () => client.addAttachment('SR-1', new Blob(['x'])),
  ];
  for (const c of calls) await c().catch(() => {});
  return sent;
}

describe('the tickets proxy\'s allow-list', () => {
  it('takes every operation the browser\'s client sends, as it sends it', async () => {
    const sent = await sentByTheClient();
    expect(sent.map((s) => s.operationName).sort()).toEqual(Object.keys(TICKETING_OPERATIONS).sort());
    for (const body of sent) expect(checkOperation(body.query, body.operationName), body.operationName).toEqual({ ok: true, name: body.operationName, document: TICKETING_OPERATIONS[body.operationName] });
    const upload = JSON.parse(String(attachmentForm('SR-1', new Blob(['x'])).get('operations'))) as { query: string; operationName: string };
    expect(checkOperation(upload.query, upload.operationName)).toMatchObject({ ok: true, name: 'AddAttachment' });
  });

  it('takes the app\'s documents reformatted (whitespace, commas, comments), without operationName', () => {
    expect(checkOperation(`# list\n${TICKETS_QUERY.replace(/\s+/g, '\n  ').replace('$first: Int,', '$first: Int')}`)).toMatchObject({ ok: true, name: 'Tickets' });
  });

  it('refuses anything else with a reason', () => {
    const reason = (q: string, name?: string) => (checkOperation(q, name) as { reason: string }).reason;
    expect(reason('{ tickets { totalCount } }')).toMatch(/^Only the app's own ticketing operations pass the tickets proxy: Tickets, Ticket, TicketForm, Machines, WireFlow, CreateTicket, AddComment, CloseTicket, AddAttachment\.$/);
    expect(reason('query Tickets { __schema { types { name } } }')).toBe('Introspection (__schema, __type) is not available through the tickets proxy.');
    expect(reason('query WireFlow { wireFlow { __typename } }')).toBe('The document of WireFlow differs from the app\'s own; send it unchanged.');
    expect(reason(WIRE_FLOW_QUERY, 'Tickets')).toBe('operationName "Tickets" does not match the document\'s operation "WireFlow".');
    expect(reason('query Tickets { tickets {')).toMatch(/^The query is not valid GraphQL: Syntax Error/);
    expect(reason(`query Tickets { ${'a '.repeat(MAX_DOCUMENT_CHARS / 2)} }`)).toMatch(/^The query is too long: at most 16,384 characters\.$/);
    expect(reason(`query Tickets { ${'a '.repeat(3000)} }`)).toBe('The query is too long: at most 2,000 tokens.');
    expect(reason('query Tickets { ...A } fragment A on Query { ...B } fragment B on Query { ...A }')).toBe('The query\'s fragments spread each other in a cycle.');
    expect(reason(`query Tickets { ${'a { '.repeat(MAX_DEPTH + 1)}b${' }'.repeat(MAX_DEPTH + 1)} }`)).toBe(`The query nests fields ${MAX_DEPTH + 2} levels deep: at most ${MAX_DEPTH}.`);
    expect(reason(`query Tickets { ${'a { '.repeat(MAX_DEPTH - 1)}b${' }'.repeat(MAX_DEPTH - 1)} }`)).toMatch(/differs from the app's own/);
    expect(reason(`query Tickets { ${Array.from({ length: MAX_ALIASES + 1 }, (_, i) => `x${i}: a`).join(' ')} }`)).toBe(`The query uses more than ${MAX_ALIASES} aliases.`);
    expect(reason(`query Tickets { ${Array.from({ length: MAX_ALIASES }, (_, i) => `x${i}: a`).join(' ')} }`)).toMatch(/differs from the app's own/);
  });

  it('keeps a fragment bomb cheap: fragments are measured once however often they are spread', () => {
    const levels = 30;
    const fragments = Array.from({ length: levels }, (_, i) => `fragment F${i} on T { ...F${i + 1} ...F${i + 1} }`).join(' ');
    const result = checkOperation(`query Tickets { ...F0 } ${fragments} fragment F${levels} on T { a: id }`);
    expect(result).toEqual({ ok: false, reason: `The query uses more than ${MAX_ALIASES} aliases.` });
  });
});
