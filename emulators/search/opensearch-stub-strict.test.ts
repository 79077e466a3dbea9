import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenSearchStub, type OpenSearchStub } from './opensearch-stub.ts';

let stub: OpenSearchStub;
beforeAll(async () => {
  stub = await startOpenSearchStub();
});
afterAll(() => stub.close());

const call = async (method: string, path: string, body?: string, type = 'application/json') => {
  const res = await fetch(`${stub.url}${path}`, { method, ...(body !== undefined ? { body, headers: { 'content-type': type } } : {}) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of any shape, checked by the assertions
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
const index = { mappings: { _meta: { language: 'de' } } };

describe('OpenSearch stub, strict to the published API shapes', () => {
  it('creates an index with settings/mappings/aliases only, and answers as a cluster does', async () => {
    expect(await call('PUT', '/strict-a', JSON.stringify(index))).toEqual({ status: 200, body: { acknowledged: true, shards_acknowledged: true, index: 'strict-a' } });
    const bad = await call('PUT', '/strict-b', JSON.stringify({ ...index, mapping: {} }));
    expect(bad).toMatchObject({ status: 400, body: { error: { type: 'parse_exception', reason: 'unknown key [mapping] for create index' }, status: 400 } });
  });

  it('takes a bulk body only as newline-terminated NDJSON, and answers each item with version, shards and sequence number', async () => {
    const line = (o: unknown) => `${JSON.stringify(o)}\n`;
    const body = line({ index: { _index: 'strict-a', _id: '1' } }) + line({ title: 'Kabel', url: '/de/1' });
    expect(await call('POST', '/_bulk', body.trimEnd(), 'application/x-ndjson')).toMatchObject({ status: 400, body: { error: { type: 'illegal_argument_exception' } } });
    const ok = await call('POST', '/_bulk', body, 'application/x-ndjson');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ errors: false, items: [{ index: { _index: 'strict-a', _id: '1', _version: 1, result: 'created', status: 201, _primary_term: 1 } }] });
    expect(ok.body.items[0].index).toHaveProperty('_seq_no');
    expect(ok.body.items[0].index).toHaveProperty('_shards.successful', 1);
  });

  it('refuses unknown search body keys, bad paging and a body of another media type', async () => {
    expect(await call('POST', '/strict-a/_search', JSON.stringify({ query: { match_all: {} }, limit: 5 }))).toMatchObject({
      status: 400, body: { error: { type: 'parsing_exception', reason: 'Unknown key for a VALUE_NUMBER in [limit].' } },
    });
    expect((await call('POST', '/strict-a/_search', JSON.stringify({ from: -1 }))).status).toBe(400);
    expect((await call('POST', '/strict-a/_search', JSON.stringify({ from: 9995, size: 10 }))).body.error.reason).toContain('Result window is too large');
    expect(await call('POST', '/strict-a/_search', JSON.stringify({}), 'text/plain')).toEqual({ status: 406, body: { error: 'Content-Type header [text/plain] is not supported', status: 406 } });
  });

  it('answers a search with the response shape of the search API', async () => {
    const r = await call('POST', '/strict-a/_search', JSON.stringify({ query: { match: { title: 'Kabel' } }, size: 1 }));
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['_shards', 'hits', 'timed_out', 'took']);
    expect(r.body.hits.total).toEqual({ value: expect.any(Number), relation: 'eq' });
  });
});
