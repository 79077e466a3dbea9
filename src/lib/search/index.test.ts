import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createSearchBackend, publishSearchDocuments, SearchError } from './index.ts';
import { EmbeddedBackend } from './embedded.ts';
import { OpenSearchBackend } from './opensearch.ts';
import { startOpenSearchStub } from '../../../emulators/search/opensearch-stub.ts';

const docs = [{ id: 'a', url: '/de/a', title: 'Kabel | Komax', description: 'Kabelverarbeitung', body: '', site: '', locale: 'de' }];

describe('search module entry', () => {
  it('creates the backend the configuration names', () => {
    expect(createSearchBackend({ engine: 'embedded', indexDir: '/dist/search' })).toBeInstanceOf(EmbeddedBackend);
    expect(createSearchBackend({ engine: 'opensearch', indexDir: '/dist/search', opensearchUrl: 'http://127.0.0.1:9' })).toBeInstanceOf(OpenSearchBackend);
  });

  it('publishes and serves the embedded index', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'search-entry-'));
    try {
      const config = { engine: 'embedded' as const, indexDir: dir };
      expect(await publishSearchDocuments(docs, config)).toEqual({ indexes: 1, documents: 1 });
      const backend = createSearchBackend(config);
      await backend.open();
      expect((await backend.search({ localeCode: 'de', siteSlug: '', query: 'kabelverarbeitung' })).total).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('publishes to OpenSearch, replacing the previous indexes behind the aliases', async () => {
    const stub = await startOpenSearchStub();
    try {
      const config = { engine: 'opensearch' as const, indexDir: '/unused', opensearchUrl: stub.url };
      await publishSearchDocuments(docs, config);
      await publishSearchDocuments([...docs, { ...docs[0]!, id: 'b', url: '/en/b', locale: 'en' }], config);
      expect([...stub.engine.aliases.keys()].sort()).toEqual(['komax-search-main-de', 'komax-search-main-en']);
      expect(stub.engine.indices.size).toBe(2);
      await publishSearchDocuments([{ ...docs[0]!, id: 'b', url: '/en/b', locale: 'en' }], config);
      expect([...stub.engine.aliases.keys()]).toEqual(['komax-search-main-en']);
      expect(stub.engine.indices.size).toBe(1);
      const backend = createSearchBackend(config);
      await backend.open();
      await backend.reload();
      expect((await backend.search({ localeCode: 'en-US', siteSlug: '', query: 'kabelverarbeitung' })).records[0]?.url).toBe('/en-us/b');
      expect((await backend.search({ localeCode: 'de', siteSlug: '', query: 'kabelverarbeitung' })).total).toBe(0);
    } finally {
      await stub.close();
    }
  });

  it('reports an unreachable OpenSearch as not ready, and search errors as SearchError with the cause', async () => {
    const stub = await startOpenSearchStub();
    const url = stub.url;
    await stub.close();
    const backend = new OpenSearchBackend(url, { requestTimeout: 1000 });
    expect((await backend.health()).ok).toBe(false);
    await expect(backend.open()).rejects.toMatchObject({ code: 'not-ready' });
    const err = await backend.search({ localeCode: 'de', siteSlug: '', query: 'kabel' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchError);
    expect((err as SearchError).code).toBe('backend');
    expect((err as SearchError).cause).toBeDefined();
    await backend.close();
  });
});

describe('OpenSearch that accepts connections and never answers', () => {
  it('fails a search and the health check within the total timeout', async () => {
    const sockets: Socket[] = [];
    const server = createServer((socket) => { sockets.push(socket); socket.on('data', () => {}); });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const backend = new OpenSearchBackend(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { connectTimeoutMs: 200, timeoutMs: 300 });
    try {
      const err = await backend.search({ localeCode: 'de', siteSlug: '', query: 'kabel' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SearchError);
      expect((err as SearchError).message).toBe('OpenSearch search failed: no answer within 300 ms');
      expect(await backend.health()).toEqual({ ok: false, detail: 'no answer within 300 ms' });
    } finally {
      for (const s of sockets) s.destroy();
      await backend.close();
      await new Promise((ok) => server.close(ok));
    }
  });
});

describe('OpenSearch indexing failures', () => {
  it('leaves the aliases alone and removes the half-built indexes', async () => {
    const stub = await startOpenSearchStub();
    try {
      const backend = new OpenSearchBackend(stub.url, { replicas: 0 });
      await backend.indexDocuments(docs);
      const before = [...stub.engine.indices.keys()];
      // The second language's bulk fails: its index vanishes under the stub's feet.
      const original = stub.engine.bulk.bind(stub.engine);
      stub.engine.bulk = (ndjson: string, index?: string) => {
        if (ndjson.includes('"_index":"komax-search-main-en-')) stub.engine.indices.delete(JSON.parse(ndjson.split('\n')[0]!).index._index);
        return original(ndjson, index);
      };
      const err = await backend.indexDocuments([...docs, { ...docs[0]!, id: 'b', url: '/en/b', locale: 'en' }]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SearchError);
      expect((err as SearchError).code).toBe('build');
      expect([...stub.engine.indices.keys()]).toEqual(before);
      expect((await backend.search({ localeCode: 'de', siteSlug: '', query: 'kabelverarbeitung' })).total).toBe(1);
      await backend.close();
    } finally {
      await stub.close();
    }
  });
});
