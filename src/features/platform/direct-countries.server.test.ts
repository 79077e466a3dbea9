import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoContentHub, type DemoContentHub } from '../../../emulators/testing.ts';
import { getSystemData, type ContentConfig } from '../../lib/content/index.ts';
import { resolveRequest } from '../../site/request.ts';
import type { SystemData } from '../../site/types.ts';
import { contentContextFor } from './context.ts';
import { directTarget } from './direct.server.ts';

/** The demo page "Training" (emulators/data/content/pages.json): offered in CH, DE and AT only. */
const TRAINING = 'cmqs82xjtooxed0t2drmq39wo';

let hub: DemoContentHub;
let config: ContentConfig;
let system: SystemData;

beforeAll(async () => {
  hub = await startDemoContentHub();
  config = { endpoint: hub.url };
  system = await getSystemData({ config, locales: ['en'], stage: 'PUBLISHED' });
});
afterAll(() => hub.close());

/** Where `?direct` on a page id leads from a locale of the main site. */
function direct(locale: string, id: string) {
  const url = new URL(`http://localhost:4321/${locale}/${id}?direct=true`);
  const resolution = resolveRequest(system, { host: url.host, pathname: url.pathname, search: url.search, cookies: {}, flags: { testing: false, nextRelease: false, editorMode: false } });
  if (resolution.kind !== 'page') throw new Error(`${url.pathname} does not resolve to a page`);
  const req = resolution.ctx;
  return directTarget(contentContextFor(config, system, req.site, req.locale), req, url);
}

describe('directTarget of a page for some countries only', () => {
  it('keeps a locale whose country offers the page, and the international one', async () => {
    expect(await direct('de-de', TRAINING)).toBe('/de-de/service-support/training');
    expect(await direct('en', TRAINING)).toBe('/en/service-support/training');
  });

  it('goes to the first of the page\'s countries that speaks the language when the visitor\'s country is not one of them', async () => {
    expect(await direct('fr-fr', TRAINING)).toBe('/fr-ch/service-support/training');
    expect(await direct('en-us', TRAINING)).toBe('/en-ch/service-support/training');
  });

  it('raises the spec\'s configuration error when none of the page\'s countries speaks the language', async () => {
    await expect(direct('ja-jp', TRAINING)).rejects.toThrow(`Page ${TRAINING} does not have countries supporting its content language ja`);
  });
});
