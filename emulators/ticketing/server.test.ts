// The ticketing emulator against real identity tokens (the identity emulator, browser-less sign-in):
// auth, organisation scoping, the resolvers, validation messages, wire-flow by user type, debug level.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoIdentity, startDemoTicketing, type DemoIdentity, type DemoTicketing } from '../testing.ts';
import { demoPackageBytes } from './store.ts';
import { createHash } from 'node:crypto';

/** Parsed JSON of an answer (its shape is what the assertions check). */
type Json = ReturnType<typeof JSON.parse>;

let identity: DemoIdentity;
let ticketing: DemoTicketing;
/** Access tokens of the demo users. */
const token: Record<'claire' | 'adam' | 'otto' | 'nora' | 'pete', string> = { claire: '', adam: '', otto: '', nora: '', pete: '' };
let claireIdToken = '';

beforeAll(async () => {
  identity = await startDemoIdentity();
  ticketing = await startDemoTicketing({ issuer: identity.issuer });
  const [claire, adam, otto, nora, pete] = await Promise.all(
    ['customer', 'admin', 'onprem', 'noroles', 'profile'].map((u) => identity.signIn(`${u}@demo.komax.test`)),
  );
  Object.assign(token, { claire: claire!.access_token, adam: adam!.access_token, otto: otto!.access_token, nora: nora!.access_token, pete: pete!.access_token });
  claireIdToken = claire!.id_token!;
}, 60_000);

afterAll(async () => {
  await ticketing?.close();
  await identity?.close();
});

interface GqlResult<T = Record<string, unknown>> {
  status: number;
  data?: T;
  errors?: { message: string; extensions?: { code?: string } }[];
}

async function gql<T = Json>(query: string, variables: Record<string, unknown> = {}, bearer: string | null = token.claire, headers: Record<string, string> = {}): Promise<GqlResult<T>> {
  const res = await fetch(ticketing.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(bearer === null ? {} : { 'x-identity-token': bearer }), ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, ...((await res.json()) as object) };
}

const LIST = `query List($filter: TicketFilter, $orderBy: TicketOrder, $first: Int, $after: String, $last: Int, $before: String) {
  tickets(filter: $filter, orderBy: $orderBy, first: $first, after: $after, last: $last, before: $before) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor node { id subject status createdOn updatedOn machine serialNumber } }
  }
}`;
type ListData = { tickets: { totalCount: number; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null }; edges: { cursor: string; node: { id: string; subject: string; status: string; createdOn: string; updatedOn: string; machine: string; serialNumber: string } }[] } };
const list = async (variables: Record<string, unknown>, bearer = token.claire) => {
  const r = await gql<ListData>(LIST, variables, bearer);
  expect(r.errors).toBeUndefined();
  return r.data!.tickets;
};
const ids = (t: ListData['tickets']) => t.edges.map((e) => e.node.id);

/** The seed's tickets of an organisation (what the API must show, and nothing else). */
const seed = JSON.parse(readFileSync(join(import.meta.dirname, '../data/ticketing/tickets.json'), 'utf8')) as { tickets: { id: string; organisationId: string; status: string; subject: string; createdOn: string }[] };
const seedOf = (org: string) => seed.tickets.filter((t) => t.organisationId === org);

describe('auth', () => {
  const VIEWER = '{ viewer { id } }';

  it('answers 401 UNAUTHENTICATED without the token header or with a malformed token', async () => {
    for (const bearer of [null, '', 'not-a-jwt', `${token.claire}x`]) {
      const r = await gql(VIEWER, {}, bearer);
      expect(r.status, String(bearer).slice(0, 12)).toBe(401);
      expect(r.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(r.data).toBeUndefined();
    }
  });

  it('accepts the identity provider\'s access token and its ID token', async () => {
    for (const bearer of [token.claire, claireIdToken]) {
      const r = await gql<{ viewer: { id: string } }>(VIEWER, {}, bearer);
      expect(r.status).toBe(200);
      expect(r.data?.viewer.id).toBe('7f3c2a10-5b1e-4c6a-9d2e-1a0000000001');
    }
  });

  describe('refuses tokens the identity provider did not issue as they are', () => {
    const claims = () => {
      const payload = JSON.parse(Buffer.from(token.claire.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
      const header = JSON.parse(Buffer.from(token.claire.split('.')[0]!, 'base64url').toString()) as { kid: string };
      return { payload, kid: header.kid };
    };
    const providerKey = async () => {
      const { jwk } = JSON.parse(readFileSync(join(identity.dataDir, 'keys.json'), 'utf8')) as { jwk: JWK };
      return importJWK(jwk, 'RS256');
    };
    const sign = async (payload: Record<string, unknown>, key: CryptoKey | Uint8Array | import('node:crypto').KeyObject, kid: string) =>
      new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid, typ: 'at+jwt' }).sign(key);

    it('a forged signature (another key under the provider\'s key id)', async () => {
      const { payload, kid } = claims();
      const { privateKey } = await generateKeyPair('RS256');
      const r = await gql(VIEWER, {}, await sign(payload, privateKey, kid));
      expect(r.status).toBe(401);
      expect(r.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    });

    it('an expired token, a token for another audience and one of another issuer (all signed with the provider\'s own key)', async () => {
      const { payload, kid } = claims();
      const key = await providerKey();
      const now = Math.floor(Date.now() / 1000);
      // The provider's key itself signs a valid token: the refusals below are about the claims only.
      expect((await gql(VIEWER, {}, await sign({ ...payload, iat: now, exp: now + 300 }, key, kid))).status).toBe(200);
      for (const bad of [
        { ...payload, iat: now - 7200, exp: now - 3600 },
        { ...payload, aud: 'another-api' },
        { ...payload, iss: 'http://localhost:1/am/oauth2/realms/root/realms/alpha' },
      ]) {
        const r = await gql(VIEWER, {}, await sign(bad, key, kid));
        expect(r.status).toBe(401);
        expect(r.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      }
    });
  });

  it('answers attachment and package downloads without a valid token with 401', async () => {
    for (const path of ['/attachments/whatever', '/downloads/wire-flow/wire-flow-server/4.2.1']) {
      const res = await fetch(`${ticketing.origin}${path}`, { headers: { 'x-identity-token': 'forged.token.here' } });
      expect(res.status).toBe(401);
    }
  });
});

describe('viewer and organisation scoping', () => {
  it('knows the caller\'s contact and organisation from the ticketing system\'s contact records', async () => {
    const query = '{ viewer { contact { name email } organisation { id name } wireFlowUserType } }';
    expect((await gql(query)).data).toEqual({ viewer: { contact: { name: 'Claire Customer', email: 'customer@demo.komax.test' }, organisation: { id: 'org-dca', name: 'Demo Cable Assembly AG' }, wireFlowUserType: 'CLOUD' } });
    expect((await gql(query, {}, token.adam)).data).toMatchObject({ viewer: { organisation: { id: 'org-hdi' } } });
    expect((await gql(query, {}, token.nora)).data).toEqual({ viewer: { contact: null, organisation: null, wireFlowUserType: 'CLOUD' } });
  });

  it('lists only the caller\'s organisation\'s tickets', async () => {
    const claire = await list({ first: 100 });
    expect(claire.totalCount).toBe(seedOf('org-dca').length);
    expect(new Set(ids(claire))).toEqual(new Set(seedOf('org-dca').map((t) => t.id)));
    const adam = await list({ first: 100 }, token.adam);
    expect(new Set(ids(adam))).toEqual(new Set(seedOf('org-hdi').map((t) => t.id)));
  });

  it('reports another organisation\'s ticket and machine as NOT_FOUND, without any of their data', async () => {
    const foreign = seedOf('org-hdi')[0]!.id;
    const r = await gql(`{ ticket(id: "${foreign}") { id subject } }`);
    expect(r.data).toEqual({ ticket: null });
    expect(r.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(JSON.stringify(r)).not.toContain(seedOf('org-hdi')[0]!.subject);
    const m = await gql('{ machine(id: "mch-020") { id name } }');
    expect(m.data).toEqual({ machine: null });
    expect(m.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    // …and the same ticket is there for its own organisation.
    expect((await gql(`{ ticket(id: "${foreign}") { id } }`, {}, token.adam)).data).toEqual({ ticket: { id: foreign } });
  });

  it('does not comment on or close another organisation\'s ticket', async () => {
    const foreign = seedOf('org-hdi').find((t) => t.status !== 'CLOSED')!.id;
    const c = await gql(`mutation { addComment(input: { ticketId: "${foreign}", body: "hello" }) { comment { id } errors { __typename message } } }`);
    expect(c.data).toEqual({ addComment: { comment: null, errors: [{ __typename: 'NotFoundError', message: `No ticket ${foreign}` }] } });
    const x = await gql(`mutation { closeTicket(input: { ticketId: "${foreign}", reason: NO_LONGER_RELEVANT }) { ticket { id } errors { __typename } } }`);
    expect(x.data).toEqual({ closeTicket: { ticket: null, errors: [{ __typename: 'NotFoundError' }] } });
    expect((await gql(`{ ticket(id: "${foreign}") { status comments { body } } }`, {}, token.adam)).data).toMatchObject({ ticket: { status: seedOf('org-hdi').find((t) => t.id === foreign)!.status } });
  });

  it('answers FORBIDDEN for organisation data to a caller without a contact', async () => {
    for (const query of ['{ tickets { totalCount } }', '{ locations { id } }', '{ machines { totalCount } }', '{ ticketTypes { type } }']) {
      const r = await gql(query, {}, token.nora);
      expect(r.errors?.[0]?.extensions?.code, query).toBe('FORBIDDEN');
    }
  });
});

describe('ticket list', () => {
  it('is newest first by default, with the status filter and the text search', async () => {
    const all = await list({ first: 100 });
    const created = all.edges.map((e) => e.node.createdOn);
    expect(created).toEqual([...created].sort().reverse());

    const open = await list({ first: 100, filter: { status: ['NEW', 'WAITING_FOR_CUSTOMER'] } });
    expect(open.totalCount).toBe(seedOf('org-dca').filter((t) => t.status === 'NEW' || t.status === 'WAITING_FOR_CUSTOMER').length);
    expect(open.edges.every((e) => ['NEW', 'WAITING_FOR_CUSTOMER'].includes(e.node.status))).toBe(true);

    // subject, case-insensitive
    const blade = await list({ filter: { search: 'BLADE' } });
    expect(ids(blade).sort()).toEqual(seedOf('org-dca').filter((t) => /blade/i.test(t.subject)).map((t) => t.id).sort());
    expect(blade.totalCount).toBeGreaterThan(0);
    // id
    expect(ids(await list({ filter: { search: 'SR-100003' } }))).toEqual(['SR-100003']);
    // serial number and machine name (SR-100001 concerns mch-001, Alpha 550 line 1, 550-10417)
    expect(ids(await list({ first: 100, filter: { search: '550-10417' } }))).toContain('SR-100001');
    expect(ids(await list({ first: 100, filter: { search: 'Alpha 550 line 1' } }))).toContain('SR-100001');
    // description
    expect((await list({ filter: { search: 'reduced output' } })).totalCount).toBeGreaterThan(0);
    // LIKE wildcards are searched as text
    expect((await list({ filter: { search: '%' } })).totalCount).toBe(0);
    // another organisation's ticket is not found by its id
    expect((await list({ filter: { search: seedOf('org-hdi')[0]!.id } })).totalCount).toBe(0);
  });

  it('sorts by createdOn, updatedOn, status and subject, ascending and descending', async () => {
    const rank = ['NEW', 'IN_PROGRESS', 'WAITING_FOR_CUSTOMER', 'CLOSED'];
    const value: Record<string, (n: ListData['tickets']['edges'][number]['node']) => string | number> = {
      CREATED_ON: (n) => n.createdOn, UPDATED_ON: (n) => n.updatedOn, STATUS: (n) => rank.indexOf(n.status), SUBJECT: (n) => n.subject.toLowerCase(),
    };
    for (const field of Object.keys(value)) {
      for (const direction of ['ASC', 'DESC']) {
        const got = (await list({ first: 100, orderBy: { field, direction } })).edges.map((e) => value[field]!(e.node));
        const sorted = [...got].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        expect(got, `${field} ${direction}`).toEqual(direction === 'ASC' ? sorted : sorted.reverse());
      }
    }
  });

  it('pages with cursors forwards and backwards, in every order, without gaps or repeats', async () => {
    for (const orderBy of [{ field: 'SUBJECT', direction: 'ASC' }, { field: 'STATUS', direction: 'DESC' }, { field: 'CREATED_ON', direction: 'DESC' }]) {
      const whole = ids(await list({ first: 100, orderBy }));
      const forwards: string[] = [];
      let after: string | null = null;
      let pages = 0;
      for (;;) {
        const page: ListData['tickets'] = await list({ first: 7, after, orderBy });
        expect(page.pageInfo.hasPreviousPage).toBe(pages > 0);
        forwards.push(...ids(page));
        pages++;
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      expect(forwards).toEqual(whole);
      expect(pages).toBe(Math.ceil(whole.length / 7));

      const backwards: string[] = [];
      let before: string | null = null;
      for (;;) {
        const page: ListData['tickets'] = await list({ last: 5, before, orderBy });
        backwards.unshift(...ids(page));
        if (!page.pageInfo.hasPreviousPage) break;
        before = page.pageInfo.startCursor;
      }
      expect(backwards).toEqual(whole);
    }
  });

  it('refuses a cursor of another order, a broken cursor and page sizes out of range', async () => {
    const page = await list({ first: 2, orderBy: { field: 'SUBJECT', direction: 'ASC' } });
    for (const variables of [
      { first: 2, after: page.pageInfo.endCursor },
      { first: 2, after: 'bm9wZQ' },
      { first: 0 },
      { first: 101 },
      { first: 2, last: 2 },
    ]) {
      const r = await gql(LIST, variables);
      expect(r.errors?.[0]?.extensions?.code, JSON.stringify(variables)).toBe('BAD_USER_INPUT');
    }
  });
});

describe('ticket detail', () => {
  it.each(['SR-100004', 'SR-100003'])('has the spec\'s fields: id, type, subject, machine, serialNumber, concern, status, contact, createdOn, replies, comments, location (%s)', async (id) => {
    const r = await gql(`{ ticket(id: "${id}") {
      id type subject description machine serialNumber status createdOn updatedOn closedOn closingReason
      concern { id name serialNumber } contact { name email } location { id name city }
      replies { author fromKomax body createdOn } comments { author fromKomax body } attachments { id }
    } }`);
    expect(r.errors).toBeUndefined();
    const t = r.data.ticket;
    const s = seed.tickets.find((x) => x.id === id) as Json;
    expect(t).toMatchObject({ id, closingReason: s.closingReason ?? null, closedOn: s.closedOn ?? null, type: s.type, subject: s.subject, status: s.status, createdOn: s.createdOn, location: { id: s.locationId }, concern: { id: s.machineId } });
    expect(t.machine).toBe(s.machineName || t.concern.name);
    expect(t.serialNumber).toBe(s.serialNumber || t.concern.serialNumber);
    expect(t.replies).toHaveLength(s.replies.length);
    expect(t.comments).toHaveLength(s.comments.length + (s.closingComment ? 1 : 0));
    expect(t.replies.every((m: { fromKomax: boolean }) => m.fromKomax)).toBe(true);
    expect(t.comments.every((m: { fromKomax: boolean }) => !m.fromKomax)).toBe(true);
    expect(t.contact.name).toBeTruthy();
  });

  it('fills machine and serial number from the concerned machine when the form left them empty', async () => {
    const s = seed.tickets.find((x) => x.organisationId === 'org-dca' && !(x as unknown as { machineName: string }).machineName)!;
    const r = await gql(`{ ticket(id: "${s.id}") { machine serialNumber concern { name serialNumber } } }`);
    expect(r.data.ticket.machine).toBe(r.data.ticket.concern.name);
    expect(r.data.ticket.serialNumber).toBe(r.data.ticket.concern.serialNumber);
  });
});

const CREATE = `mutation Create($input: CreateTicketInput!) {
  createTicket(input: $input) {
    ticket { id type subject description status machine serialNumber concern { id } contact { name } location { id } createdOn attachments { id fileName contentType size url } }
    errors { __typename message ... on ValidationError { field code } }
  }
}`;
const validInput = { locationId: 'loc-dca-brno', type: 'REPAIR', machineId: 'mch-002', subject: 'Blade guard cracked', description: 'The blade guard of the cutting unit is cracked.' };

describe('createTicket', () => {
  it('answers each empty required field with the ticket form\'s message, verbatim, and stores nothing', async () => {
    const before = (await list({})).totalCount;
    const r = await gql(CREATE, { input: { subject: '   ', description: '' } });
    expect(r.data.createTicket.ticket).toBeNull();
    expect(r.data.createTicket.errors).toEqual([
      { __typename: 'ValidationError', field: 'locationId', code: 'REQUIRED', message: 'Please select a location' },
      { __typename: 'ValidationError', field: 'type', code: 'REQUIRED', message: 'Please select a ticket type' },
      { __typename: 'ValidationError', field: 'machineId', code: 'REQUIRED', message: 'Please select a machine concerned' },
      { __typename: 'ValidationError', field: 'subject', code: 'REQUIRED', message: 'Please enter the subject' },
      { __typename: 'ValidationError', field: 'description', code: 'REQUIRED', message: 'Please enter the description' },
    ]);
    expect((await list({})).totalCount).toBe(before);
  });

  it('refuses another organisation\'s location and machine, and over-long text', async () => {
    const r = await gql(CREATE, { input: { ...validInput, locationId: 'loc-hdi-auburn', machineId: 'mch-020', subject: 'x'.repeat(201) } });
    expect(r.data.createTicket.errors).toEqual([
      { __typename: 'ValidationError', field: 'subject', code: 'TOO_LONG', message: 'The subject must be at most 200 characters' },
      { __typename: 'ValidationError', field: 'locationId', code: 'UNKNOWN', message: 'Please select a location' },
      { __typename: 'ValidationError', field: 'machineId', code: 'UNKNOWN', message: 'Please select a machine concerned' },
    ]);
  });

  it('creates a NEW ticket with the caller as contact, listed first and found by search', async () => {
    const r = await gql(CREATE, { input: { ...validInput, machineName: '', serialNumber: ' SN-77 ' } });
    expect(r.data.createTicket.errors).toEqual([]);
    const t = r.data.createTicket.ticket;
    expect(t).toMatchObject({ type: 'REPAIR', subject: validInput.subject, status: 'NEW', machine: 'Alpha 560 cell 1', serialNumber: 'SN-77', concern: { id: 'mch-002' }, contact: { name: 'Claire Customer' }, location: { id: 'loc-dca-brno' }, attachments: [] });
    expect(t.id).toMatch(/^SR-\d+$/);
    expect(ids(await list({ first: 1 }))).toEqual([t.id]);
    expect(ids(await list({ filter: { search: 'SN-77' } }))).toEqual([t.id]);
    // the machine's open tickets include it; other organisations do not see it
    expect((await gql('{ machine(id: "mch-002") { openTickets { id } } }')).data.machine.openTickets.map((x: { id: string }) => x.id)).toContain(t.id);
    expect((await gql(`{ ticket(id: "${t.id}") { id } }`, {}, token.adam)).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('refuses attachments sent as JSON instead of multipart files', async () => {
    const r = await gql(CREATE, { input: { ...validInput, attachments: [{ $staged: 'guess' }] } });
    expect(r.data.createTicket.errors).toEqual([{ __typename: 'ValidationError', field: 'attachments', code: 'INVALID', message: 'Attachments must be sent as files of a multipart request' }]);
  });
});

describe('addComment and closeTicket', () => {
  const create = async (subject: string) => (await gql(CREATE, { input: { ...validInput, subject } })).data.createTicket.ticket.id as string;
  const COMMENT = 'mutation($input: AddCommentInput!) { addComment(input: $input) { comment { author body fromKomax } ticket { comments { body } updatedOn } errors { __typename message ... on ValidationError { field code } } } }';
  const CLOSE = 'mutation($input: CloseTicketInput!) { closeTicket(input: $input) { ticket { status closingReason closingComment closedOn comments { body } } errors { __typename message } } }';

  it('refuses an empty comment with \'Please enter a comment\' and adds a real one', async () => {
    const id = await create('Comment test');
    for (const body of ['', '  \n ', null]) {
      const r = await gql(COMMENT, { input: { ticketId: id, body } });
      expect(r.data.addComment).toEqual({ comment: null, ticket: null, errors: [{ __typename: 'ValidationError', field: 'body', code: 'REQUIRED', message: 'Please enter a comment' }] });
    }
    const ok = await gql(COMMENT, { input: { ticketId: id, body: 'The cracked guard is attached.' } });
    expect(ok.data.addComment.errors).toEqual([]);
    expect(ok.data.addComment.comment).toEqual({ author: 'Claire Customer', body: 'The cracked guard is attached.', fromKomax: false });
    expect(ok.data.addComment.ticket.comments.map((c: { body: string }) => c.body)).toEqual(['The cracked guard is attached.']);
  });

  it.each(['RESOLVED_BY_KOMAX', 'RESOLVED_WITHOUT_KOMAX', 'NO_LONGER_RELEVANT'])('closes with %s, with or without a comment; a closed ticket takes no comment and no second closing', async (reason) => {
    const withComment = await create(`Close ${reason} with comment`);
    const r = await gql(CLOSE, { input: { ticketId: withComment, reason, comment: 'Fixed by replacing the guard.' } });
    expect(r.data.closeTicket.errors).toEqual([]);
    expect(r.data.closeTicket.ticket).toMatchObject({ status: 'CLOSED', closingReason: reason, closingComment: 'Fixed by replacing the guard.', comments: [{ body: 'Fixed by replacing the guard.' }] });
    expect(r.data.closeTicket.ticket.closedOn).toBeTruthy();

    const without = await create(`Close ${reason} without comment`);
    const q = await gql(CLOSE, { input: { ticketId: without, reason } });
    expect(q.data.closeTicket.ticket).toMatchObject({ status: 'CLOSED', closingReason: reason, closingComment: null, comments: [] });

    expect((await gql(COMMENT, { input: { ticketId: without, body: 'late' } })).data.addComment.errors).toEqual([{ __typename: 'TicketClosedError', message: `Ticket ${without} is closed` }]);
    expect((await gql(CLOSE, { input: { ticketId: without, reason } })).data.closeTicket.errors).toEqual([{ __typename: 'TicketClosedError', message: `Ticket ${without} is closed` }]);
    expect(ids(await list({ first: 100, filter: { status: ['CLOSED'] } }))).toContain(without);
  });

  it('refuses an unknown closing reason as a GraphQL validation error', async () => {
    const r = await gql(CLOSE, { input: { ticketId: 'SR-100001', reason: 'BECAUSE' } });
    expect(r.status).toBe(400);
    expect(r.errors?.[0]?.message).toMatch(/ClosingReason/);
  });
});

describe('locations, ticket types and inventory', () => {
  it('lists the organisation\'s locations and the ticket types', async () => {
    expect((await gql('{ locations { id } }')).data.locations.map((l: { id: string }) => l.id).sort()).toEqual(['loc-dca-brno', 'loc-dca-dierikon', 'loc-dca-lyon']);
    expect((await gql('{ ticketTypes { type name } }', {}, token.adam)).data.ticketTypes.map((t: { type: string }) => t.type)).toEqual(['TECHNICAL_SUPPORT', 'REPAIR', 'SPARE_PARTS', 'MAINTENANCE', 'SOFTWARE', 'TRAINING']);
  });

  it('lists the organisation\'s machines with their fields, filters and open tickets', async () => {
    const all = (await gql('{ machines(first: 100) { totalCount nodes { id name model serialNumber installedOn softwareVersion location { id } warranty { state endsOn } serviceContract { state name endsOn } openTicketCount openTickets { id status } } } }', {}, token.pete)).data.machines;
    expect(all.totalCount).toBe(7);
    const names = all.nodes.map((m: { name: string }) => m.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    const today = new Date().toISOString().slice(0, 10);
    for (const m of all.nodes) {
      expect(m.location.id).toMatch(/^loc-phl-/);
      expect(m.warranty.state).toBe(m.warranty.endsOn === null ? 'NONE' : m.warranty.endsOn >= today ? 'ACTIVE' : 'EXPIRED');
      expect(m.openTicketCount).toBe(m.openTickets.length);
      expect(m.openTickets.every((t: { status: string }) => t.status !== 'CLOSED')).toBe(true);
    }
    const withOpen = (await gql('{ machines(first: 100, filter: { hasOpenTickets: true }) { nodes { openTicketCount } } }', {}, token.pete)).data.machines.nodes;
    expect(withOpen.length).toBeGreaterThan(0);
    expect(withOpen.every((m: { openTicketCount: number }) => m.openTicketCount > 0)).toBe(true);
    const search = (await gql('{ machines(filter: { search: "alpha" }) { nodes { name model } } }', {}, token.pete)).data.machines.nodes;
    expect(search.every((m: { name: string }) => /alpha/i.test(m.name))).toBe(true);
    const active = (await gql('{ machines(first: 100, filter: { warranty: ACTIVE }) { nodes { warranty { state } } } }')).data.machines.nodes;
    expect(active.every((m: { warranty: { state: string } }) => m.warranty.state === 'ACTIVE')).toBe(true);
  });

  it('has 30 machines across the 3 organisations, each organisation seeing only its own', async () => {
    const counts = await Promise.all([token.claire, token.adam, token.pete].map(async (t) => (await gql('{ machines { totalCount } }', {}, t)).data.machines.totalCount as number));
    expect(counts).toEqual([14, 9, 7]);
  });
});

describe('wire-flow', () => {
  const WIRE = '{ wireFlow { __typename ... on WireFlowOnPrem { userType packages { id name latestVersion { version } versions { version releasedOn releaseNotes fileName size sha256 downloadUrl } } } ... on WireFlowCloud { userType entryPointUrl } } }';

  it('gives the on-prem user the packages with versions, release notes, size and checksum, and the download matches them', async () => {
    const r = await gql(WIRE, {}, token.otto);
    expect(r.data.wireFlow.__typename).toBe('WireFlowOnPrem');
    const packages = r.data.wireFlow.packages;
    expect(packages.length).toBeGreaterThanOrEqual(4);
    const v = packages[0].versions[0];
    expect(packages[0].latestVersion.version).toBe(v.version);
    expect(v.releaseNotes).toBeTruthy();
    const res = await fetch(v.downloadUrl, { headers: { 'x-identity-token': token.otto } });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBe(v.size);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(v.sha256);
    expect(res.headers.get('content-disposition')).toContain(v.fileName);
    expect(bytes.equals(demoPackageBytes(packages[0].id, v.version))).toBe(true);
  });

  it('gives a cloud user the cloud entry point and no package download', async () => {
    const r = await gql(WIRE, {}, token.claire);
    expect(r.data.wireFlow).toEqual({ __typename: 'WireFlowCloud', userType: 'CLOUD', entryPointUrl: 'https://wire-flow.komax.example/app' });
    const res = await fetch(`${ticketing.origin}/downloads/wire-flow/wire-flow-server/4.2.1`, { headers: { 'x-identity-token': token.claire } });
    expect(res.status).toBe(403);
  });
});

describe('x-debug-level', () => {
  it('only changes what the emulator logs', async () => {
    const lines: string[] = [];
    const logged = await startDemoTicketing({ issuer: identity.issuer, log: (line) => lines.push(line) });
    try {
      const ask = async (level?: string) => {
        const res = await fetch(logged.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-identity-token': token.claire, ...(level ? { 'x-debug-level': level } : {}) },
          body: JSON.stringify({ query: 'query Mine($s: String) { tickets(filter: { search: $s }) { totalCount } }', variables: { s: 'x'.repeat(80) } }),
        });
        return res.json();
      };
      const quiet = await ask('none');
      expect(lines).toEqual([]);
      expect(await ask()).toEqual(quiet);
      expect(lines).toEqual([]);
      expect(await ask('debug')).toEqual(quiet);
      expect(lines.some((l) => l.startsWith('[ticketing] debug Mine ')), lines.join('\n')).toBe(true);
      // spec §9: logged variables are cut to 50 characters
      const vars = lines.find((l) => l.startsWith('[ticketing] debug Mine '))!.slice('[ticketing] debug Mine '.length);
      expect(vars).toHaveLength(50);
    } finally {
      await logged.close();
    }
  });
});
