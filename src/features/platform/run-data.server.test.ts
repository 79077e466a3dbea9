import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoContentHub, type DemoContentHub } from '../../../emulators/testing.ts';
import { getSystemData } from '../../lib/content/index.ts';
import { siteLocales } from '../../site/locale.ts';
import type { SystemData } from '../../site/types.ts';
import type { Services } from './context.ts';
import { createRunData, routeSourceContext } from './run-data.server.ts';
import { mainSite } from '../../site/main-site.ts';

let hub: DemoContentHub;
let system: SystemData;

beforeAll(async () => {
  hub = await startDemoContentHub();
  system = await getSystemData({ config: { endpoint: hub.url }, locales: ['en'], stage: 'PUBLISHED' });
});
afterAll(() => hub.close());

/** Builds the home route with a loader that reads one record, which fails while `failing` is set. */
async function buildReading(failing: boolean): Promise<string[]> {
  const main = mainSite(system)!;
  const locale = siteLocales(main, system).find((l) => l.urlCode === 'en')!;
  const ctx = routeSourceContext({
    system, site: main, locale, host: 'localhost', services: { content: { endpoint: hub.url } } as unknown as Services,
    data: createRunData(), hash: (r) => JSON.stringify(r),
  });
  const { model, recordHashes } = await ctx.build('', async (lc) => {
    const product = await lc.data.get(['catalogue', 'product', 'en', 'gone'], () => (failing ? Promise.reject(new Error('No product found for slug gone')) : Promise.resolve({ slug: 'gone' }))).catch(() => null);
    return { kind: 'test', product };
  });
  expect(model).toEqual({ kind: 'test', product: failing ? null : { slug: 'gone' } });
  return recordHashes;
}

describe('a route built by the prerender', () => {
  it('counts a failed read its loader handled as that failure, and is built (a page leaving out an unknown product)', async () => {
    const failed = await buildReading(true);
    expect(failed).toEqual(['["catalogue","product","en","gone"]={"failedRead":"No product found for slug gone"}']);
    // Once the record exists, the route's fingerprint differs: it renders again.
    expect(await buildReading(false)).not.toEqual(failed);
  });

  it('fails when its loader does not handle the failed read', async () => {
    const main = mainSite(system)!;
    const ctx = routeSourceContext({
      system, site: main, locale: siteLocales(main, system)[0]!, host: 'localhost', services: {} as Services, data: createRunData(), hash: (r) => JSON.stringify(r),
    });
    await expect(ctx.build('', (lc) => lc.data.get(['x'], () => Promise.reject(new Error('hub down'))))).rejects.toThrow('hub down');
  });
});
