import { describe, expect, it } from 'vitest';
import { mapCustomerArea } from './map.ts';

const raw = {
  directServiceUrl: 'https://direct.example.test/',
  wireFlowCloudUrl: 'https://wire-flow.example.test/app',
  masterDataWmUrl: null,
  masterDataMdsUrl: undefined,
  campusUrl: 'null',
  requestAccessPath: '/contact',
  comingSoon: ['masterDataMds', ' masterDataMds ', ''],
  supportEmail: ' service@komax.com ',
  supportPhone: '+41 41 455 05 05',
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
      supportEmail: 'service@komax.com',
      supportPhone: '+41 41 455 05 05',
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

  it('keeps a support e-mail address and a phone of digits, spaces and a leading +', () => {
    for (const phone of ['+41414550505', '041 455 05 05', '+1 800 555 0199']) {
      expect(mapCustomerArea({ ...raw, supportPhone: phone }).supportPhone).toBe(phone);
    }
    expect(mapCustomerArea({ ...raw, supportEmail: 'support.team+ch@komax.example' }).supportEmail).toBe('support.team+ch@komax.example');
  });

  it('turns a missing support contact (null, undefined, empty, the CMS\'s "null") into null without a warning', () => {
    const warnings: string[] = [];
    for (const value of [null, undefined, '', '  ', 'null']) {
      const out = mapCustomerArea({ ...raw, supportEmail: value, supportPhone: value }, (m) => warnings.push(m));
      expect(out.supportEmail).toBeNull();
      expect(out.supportPhone).toBeNull();
    }
    expect(warnings).toEqual([]);
  });

  it.each([
    ['supportEmail', 'service(at)komax.com'],
    ['supportEmail', 'service@komax.com <script>'],
    ['supportEmail', 'javascript:alert(1)//@komax.com'],
    ['supportPhone', '+41 (41) 455 05 05'],
    ['supportPhone', '+41-41-455-05-05'],
    ['supportPhone', '41 455 05 05 ext. 3'],
    ['supportPhone', '++41 41'],
    ['supportPhone', '+'],
  ] as const)('drops and reports a malformed %s: %j', (field, value) => {
    const warnings: string[] = [];
    expect(mapCustomerArea({ ...raw, [field]: value }, (m) => warnings.push(m))[field]).toBeNull();
    expect(warnings).toEqual([expect.stringContaining(`customerAreaSettings.${field}`)]);
  });
});
