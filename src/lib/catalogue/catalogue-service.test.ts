import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogueError, getClassifications, getProduct, getServiceProduct, indexClassifications, NO_PRODUCT_FOUND, ProductNotFoundError, type CatalogueContext } from './index.ts';

/** What the stand-in catalogue answers next, and the last request body it received. */
let reply: { status: number; body: unknown } = { status: 200, body: { data: {} } };
let received: { query: string; variables: Record<string, unknown> } | null = null;
let server: Server;
let ctx: CatalogueContext;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      received = JSON.parse(raw);
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  ctx = { config: { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql` }, language: 'de' };
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const lookup = indexClassifications([]);
const failure = async (p: Promise<unknown>) => {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(CatalogueError);
  return err as CatalogueError;
};

describe('catalogue queries', () => {
  it('ask in the context language and map the answer', async () => {
    reply = { status: 200, body: { data: { allClassifications: [{ id: '100', parent_id: null, name: 'Produkte', slug: 'products', description: null, image_url: null, language: 'de', supported_countries: ['CH'], sort_index: 1, children: [], type: 'product' }] } } };
    const list = await getClassifications(ctx);
    expect(received!.variables).toEqual({ language: 'de' });
    expect(list.map((c) => [c.name, c.route])).toEqual([['Produkte', '/products']]);
  });

  it("raise 'No product found for slug' for a product or service product the catalogue does not know", async () => {
    reply = { status: 200, body: { data: { product: null } } };
    const err = await failure(getProduct(ctx, lookup, 'kappa-999'));
    expect(err).toBeInstanceOf(ProductNotFoundError);
    expect(err.message).toBe(`${NO_PRODUCT_FOUND} kappa-999`);
    reply = { status: 200, body: { data: { serviceProduct: null } } };
    expect((await failure(getServiceProduct(ctx, lookup, 'nothing'))).message).toBe('No product found for slug nothing');
  });
});

describe('errors are rethrown as CatalogueError', () => {
  it('with the first GraphQL error message', async () => {
    reply = { status: 200, body: { data: null, errors: [{ message: 'Invalid slug "X"' }, { message: 'second' }] } };
    const err = await failure(getProduct(ctx, lookup, 'x'));
    expect(err).not.toBeInstanceOf(ProductNotFoundError);
    expect(err.message).toBe('Invalid slug "X"');
    expect(err.operation).toBe('product');
  });

  it("with 'GraphQL Error (Code: {status})' when there is no message", async () => {
    reply = { status: 503, body: {} };
    const err = await failure(getClassifications(ctx));
    expect(err.message).toBe('GraphQL Error (Code: 503)');
    expect(err.status).toBe(503);
  });

  it('for an answer of the wrong shape, naming the path', async () => {
    reply = { status: 200, body: { data: { allClassifications: [{ id: 1 }] } } };
    expect((await failure(getClassifications(ctx))).message).toMatch(/^Unexpected allClassifications response at allClassifications\.0\.id/);
  });

  it('for an unreachable catalogue, keeping the cause', async () => {
    const err = await failure(getClassifications({ ...ctx, config: { ...ctx.config, endpoint: 'http://127.0.0.1:1/graphql' } }));
    expect(err.message).toMatch(/^Catalogue unreachable: /);
    expect(err.cause).toBeInstanceOf(Error);
  });
});
