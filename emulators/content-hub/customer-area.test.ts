import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import { startContentHub } from './server.ts';
import { getCustomerAreaSettings } from '../../src/lib/content/customer-area.ts';

const here = dirname(fileURLToPath(import.meta.url));
let server: Server;
let endpoint: string;

beforeAll(async () => {
  const hub = await startContentHub({ port: 0, dataDir: join(here, '../data/content'), quiet: true });
  server = hub.server;
  endpoint = hub.url;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('customer-area settings through the content client', () => {
  it('answers the demo record: service addresses, the request-access page, master-data services 2 coming soon, the support contact', async () => {
    const settings = await getCustomerAreaSettings({ config: { endpoint }, locales: ['en'], stage: 'PUBLISHED' });
    expect(settings).toEqual({
      directServiceUrl: 'https://direct.demo.komax.test/',
      wireFlowCloudUrl: 'https://wire-flow.demo.komax.test/',
      masterDataWmUrl: 'https://master-data-wm.demo.komax.test/',
      masterDataMdsUrl: 'https://master-data-mds.demo.komax.test/',
      campusUrl: 'https://campus.demo.komax.test/',
      requestAccessPath: '/contact',
      comingSoon: ['masterDataMds'],
      supportEmail: 'service@komax.com',
      supportPhone: '+41 41 455 05 05',
    });
  });
});
