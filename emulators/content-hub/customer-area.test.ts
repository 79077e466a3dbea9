import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoContentHub, type DemoContentHub } from '../testing.ts';
import { getCustomerAreaSettings } from '../../src/lib/content/customer-area/index.ts';

let hub: DemoContentHub;
let endpoint: string;

beforeAll(async () => {
  hub = await startDemoContentHub();
  endpoint = hub.url;
});
afterAll(() => hub.close());

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
