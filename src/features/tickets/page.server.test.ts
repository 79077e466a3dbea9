import { afterEach, describe, expect, it } from 'vitest';
import type { CustomerAreaContent } from '../../lib/content/index.ts';
import { captureLogs, type CapturedLogs } from '../../../tests/support/log.ts';
import type { LoadContext } from '../platform/context.ts';
import { loadSupportContact } from './page.server.ts';

const SETTINGS: CustomerAreaContent = {
  directServiceUrl: null, wireFlowCloudUrl: null, masterDataWmUrl: null, masterDataMdsUrl: null, campusUrl: null,
  requestAccessPath: null, comingSoon: [], supportEmail: 'help@komax.example', supportPhone: '+41 41 000 00 00',
};

/** A load context whose data source answers the customer-area settings with `answer` (or fails with it). */
function contextAnswering(answer: CustomerAreaContent | Error): { lc: LoadContext; keys: unknown[][] } {
  const keys: unknown[][] = [];
  const data = { get: (key: readonly unknown[]) => { keys.push([...key]); return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer); } };
  return { lc: { data, content: { stage: 'PUBLISHED' } } as unknown as LoadContext, keys };
}

let logs: CapturedLogs | undefined;
afterEach(() => { logs?.restore(); logs = undefined; });

describe('loadSupportContact', () => {
  it('takes the support contact from the content hub\'s customer-area settings (the cached record the dashboard reads)', async () => {
    const { lc, keys } = contextAnswering(SETTINGS);
    expect(await loadSupportContact(lc)).toEqual({ email: 'help@komax.example', phone: '+41 41 000 00 00' });
    expect(keys).toEqual([['content', 'customerArea', 'PUBLISHED']]);
  });

  it('hides the contact line and logs an error when the content hub fails (the page still renders)', async () => {
    logs = captureLogs('debug');
    const { lc } = contextAnswering(new Error('content hub: connect ECONNREFUSED'));
    expect(await loadSupportContact(lc)).toBeNull();
    expect(logs.lines).toEqual([expect.objectContaining({ level: 'error', component: 'tickets', msg: expect.stringContaining('ECONNREFUSED') })]);
  });

  it.each([
    ['no e-mail address', { supportEmail: null }],
    ['no phone number', { supportPhone: null }],
  ])('hides the contact line and warns when the record has %s', async (_, partial) => {
    logs = captureLogs('debug');
    const { lc } = contextAnswering({ ...SETTINGS, ...partial });
    expect(await loadSupportContact(lc)).toBeNull();
    expect(logs.lines).toEqual([expect.objectContaining({ level: 'warn', component: 'tickets' })]);
  });
});
