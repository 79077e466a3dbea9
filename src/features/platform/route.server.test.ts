import { afterEach, describe, expect, it } from 'vitest';
import type { DataSource } from '../../lib/cache/data-cache.ts';
import { captureLogs, type CapturedLogs } from '../../../tests/support/log.ts';
import type { RequestContext } from '../../site/request.ts';
import type { NotFoundModel, PageModelBase } from './page-model.ts';
import { resolveRoute } from './route.server.ts';

/** The locals of a request the middleware resolved: no navigation, the page request as given. */
function locals(notFound: boolean): App.Locals {
  const data: DataSource = { get: <T>() => Promise.resolve(null as T) };
  const request = { area: 'page', site: { id: 'site-main' } } as unknown as RequestContext;
  return { page: { request, notFound, data, content: { stage: 'PUBLISHED', locales: ['en'] }, services: {} } } as unknown as App.Locals;
}

const found = { kind: 'found', header: null, footer: null } as unknown as PageModelBase;
const spec = (model: PageModelBase | NotFoundModel) => ({ kinds: ['found'] as const, load: () => Promise.resolve(model) }) as never;

let logs: CapturedLogs | undefined;
afterEach(() => logs?.restore());

describe('resolveRoute', () => {
  it('logs \'Page Not Found: {fullPath}\' (path and query) for a route that resolves to the 404 page', async () => {
    logs = captureLogs('info');
    const result = await resolveRoute(locals(true), new URL('http://localhost:4321/en/no-such-page?utm=x'), spec(found));
    expect(result).toMatchObject({ kind: 'page', model: { kind: 'not-found' } });
    expect(logs.lines.map((l) => l.msg)).toEqual(['Page Not Found: /en/no-such-page?utm=x']);
  });

  it('logs nothing for a page that exists', async () => {
    logs = captureLogs('info');
    const result = await resolveRoute(locals(false), new URL('http://localhost:4321/en/about-us'), spec(found));
    expect(result).toMatchObject({ kind: 'page', model: { kind: 'found' } });
    expect(logs.lines).toEqual([]);
  });
});
