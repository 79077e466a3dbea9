import { describe, expect, it } from 'vitest';
import { createTicketingClient, ticketsVariables } from './ticketing-service.ts';
import { TicketingError } from './errors.ts';
import { openLink, sealLink } from './links.server.ts';
import { rewriteFileUrls } from './rewrite.ts';

const answer = (status: number, body: unknown) => async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });

describe('the ticketing client', () => {
  it('reports the first GraphQL error\'s message (spec §8), keeping status and code', async () => {
    const client = createTicketingClient({ send: answer(200, { data: null, errors: [{ message: 'No organisation', extensions: { code: 'FORBIDDEN' } }, { message: 'second' }] }) });
    const err = await client.tickets().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TicketingError);
    expect((err as TicketingError).message).toBe('No organisation');
    expect((err as TicketingError).code).toBe('FORBIDDEN');
    expect((err as TicketingError).status).toBe(200);
  });

  it('says \'GraphQL Error (Code: {status})\' when the answer names no message', async () => {
    const client = createTicketingClient({ send: answer(502, '<html>Bad gateway</html>') });
    await expect(client.wireFlow()).rejects.toMatchObject({ message: 'GraphQL Error (Code: 502)', failure: 'unavailable' });
  });

  it('keeps the proxy\'s own refusal text (413, 503)', async () => {
    const client = createTicketingClient({ send: answer(503, { error: 'unavailable', message: 'The ticketing service is not reachable right now. Please try again later.' }) });
    await expect(client.tickets()).rejects.toMatchObject({ status: 503, failure: 'unavailable', message: 'The ticketing service is not reachable right now. Please try again later.' });
  });

  it('treats another organisation\'s ticket as missing', async () => {
    const client = createTicketingClient({ send: answer(404, { data: { ticket: null }, errors: [{ message: 'No ticket SR-1', extensions: { code: 'NOT_FOUND' } }] }) });
    expect(await client.ticket('SR-1')).toBeNull();
  });

  it('returns a mutation\'s field errors instead of throwing', async () => {
    const client = createTicketingClient({ send: answer(200, { data: { createTicket: { ticket: null, errors: [{ __typename: 'ValidationError', field: 'subject', code: 'REQUIRED', message: 'Please enter the subject' }] } } }) });
    expect(await client.createTicket({ locationId: 'l', type: 'REPAIR', machineId: 'm', subject: '', description: 'd' }))
      .toEqual({ ok: false, errors: [{ field: 'subject', code: 'REQUIRED', message: 'Please enter the subject' }] });
  });

  it('sends the caller\'s idempotency key with the writes that create (ticket, comment, attachment)', async () => {
    const seen: (string | null)[] = [];
    const send = async (init: RequestInit) => {
      seen.push(new Headers(init.headers).get('Idempotency-Key'));
      const op = (JSON.parse(String(init.body)) as { operationName: string }).operationName;
      return new Response(JSON.stringify({ data: op === 'CreateTicket' ? { createTicket: { ticket: { id: 'SR-1' }, errors: [] } } : { addComment: { ticket: null, errors: [{ __typename: 'ValidationError', field: 'body', code: 'REQUIRED', message: 'x' }] } } }), { status: 200 });
    };
    const uploads: Record<string, string>[] = [];
    const upload = async (_b: FormData, _p: unknown, _s?: AbortSignal, headers: Record<string, string> = {}) => {
      uploads.push(headers);
      return { status: 200, body: JSON.stringify({ data: { addAttachment: { attachment: null, errors: [{ __typename: 'ValidationError', field: 'file', code: 'X', message: 'x' }] } } }) };
    };
    const client = createTicketingClient({ send, upload });
    await client.createTicket({ locationId: 'l', type: 'REPAIR', machineId: 'm', subject: 's', description: 'd' }, 'key-create-0123456789');
    await client.addComment('SR-1', 'hello', 'key-comment-0123456789');
    await client.addAttachment('SR-1', new Blob(['x']), () => {}, undefined, 'key-upload-0123456789');
    await client.tickets().catch(() => {});
    expect(seen).toEqual(['"key-create-0123456789"', '"key-comment-0123456789"', null]);
    expect(uploads).toEqual([{ 'Idempotency-Key': '"key-upload-0123456789"' }]);
  });

  it('tells an unknown outcome (no answer, 502, 504, 409) from a known failure (503, 408)', async () => {
    const failed = async (send: () => Promise<Response>) => (await createTicketingClient({ send }).addComment('SR-1', 'x').catch((e: unknown) => e)) as TicketingError;
    expect((await failed(async () => { throw new TypeError('Failed to fetch'); })).outcomeUnknown).toBe(true);
    expect((await failed(answer(504, { error: 'upstream-timeout', message: 'slow' }))).outcomeUnknown).toBe(true);
    expect((await failed(answer(502, '<html>'))).outcomeUnknown).toBe(true);
    expect((await failed(answer(409, { errors: [{ message: 'busy', extensions: { code: 'IDEMPOTENCY_KEY_IN_USE' } }] }))).outcomeUnknown).toBe(true);
    expect((await failed(answer(503, { error: 'unavailable', message: 'down' }))).outcomeUnknown).toBe(false);
    const stalled = await failed(answer(408, { error: 'request-timeout', message: 'The upload stalled' }));
    expect([stalled.outcomeUnknown, stalled.stalled]).toEqual([false, true]);
  });

  it('asks for pages forwards with first/after and backwards with last/before', () => {
    expect(ticketsVariables({ after: 'c1', status: ['NEW'], search: ' x ' })).toEqual({ filter: { status: ['NEW'], search: 'x' }, first: 20, after: 'c1' });
    expect(ticketsVariables({ before: 'c2', pageSize: 5 })).toEqual({ last: 5, before: 'c2' });
  });
});

describe('download links', () => {
  const claims = { sub: 'u1', resource: '/attachments/att-1', token: 'tok', exp: 2_000 };
  it('open only with the secret they were sealed with, and only until they expire', () => {
    const link = sealLink('s'.repeat(32), claims);
    expect(link).not.toContain('tok');
    expect(openLink('s'.repeat(32), link, 1_000)).toEqual({ ok: true, claims });
    expect(openLink('t'.repeat(32), link, 1_000)).toEqual({ ok: false, reason: 'invalid' });
    expect(openLink('s'.repeat(32), link, 2_000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('name only attachments and wire-flow packages', () => {
    expect(() => sealLink('s', { ...claims, resource: '/graphql' })).toThrow();
    expect(() => sealLink('s', { ...claims, resource: '/attachments/../graphql' })).toThrow();
  });
});

describe('rewriteFileUrls', () => {
  it('replaces the service\'s file URLs anywhere in an answer and nothing else', () => {
    const origin = 'http://127.0.0.1:4103';
    const body = { data: { a: [{ url: `${origin}/attachments/x` }], v: { downloadUrl: `${origin}/downloads/wire-flow/p/1.0` }, other: `${origin}/graphql`, elsewhere: 'http://example.com/attachments/y', n: 3 } };
    expect(rewriteFileUrls(body, origin, (p) => `/dl${p}`)).toEqual({
      data: { a: [{ url: '/dl/attachments/x' }], v: { downloadUrl: '/dl/downloads/wire-flow/p/1.0' }, other: `${origin}/graphql`, elsewhere: 'http://example.com/attachments/y', n: 3 },
    });
  });
});
