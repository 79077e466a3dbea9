import { describe, expect, it } from 'vitest';
import { mapCustomerArea } from './customer-area-map.ts';

const raw = {
  directServiceUrl: 'https://direct.example.test/',
  wireFlowCloudUrl: 'https://wire-flow.example.test/app',
  masterDataWmUrl: null,
  masterDataMdsUrl: undefined,
  campusUrl: 'null',
  requestAccessPath: '/contact',
  comingSoon: ['masterDataMds', ' masterDataMds ', ''],
};

describe('mapCustomerArea', () => {
  it('keeps http(s) addresses, turns missing ones (and the CMS\'s "null") into null', () => {
    expect(mapCustomerArea(raw)).toEqual({
      directServiceUrl: 'https://direct.example.test/',
      wireFlowCloudUrl: 'https://wire-flow.example.test/app',
      masterDataWmUrl: null,
      masterDataMdsUrl: null,
      campusUrl: null,
      requestAccessPath: '/contact',
      comingSoon: ['masterDataMds'],
    });
  });

  it('drops and reports addresses that are not http(s) and paths that are not site-relative', () => {
    const warnings: string[] = [];
    const out = mapCustomerArea({ ...raw, directServiceUrl: 'javascript:alert(1)', campusUrl: '/relative', requestAccessPath: '//evil.test/x' }, (m) => warnings.push(m));
    expect(out.directServiceUrl).toBeNull();
    expect(out.campusUrl).toBeNull();
    expect(out.requestAccessPath).toBeNull();
    expect(warnings).toHaveLength(3);
    expect(warnings.join('\n')).toContain('directServiceUrl');
  });
});
