import { describe, expect, it } from 'vitest';
import { isPageAvailable } from './model.ts';
import type { Country, Site } from '../../site/types.ts';

const site = (isMain: boolean) => ({ isMain }) as Site;
const country = (countryCode: string) => ({ countryCode }) as Country;
const req = (isMain: boolean, cc: string) => ({ site: site(isMain), country: country(cc) });

describe('main-site-only pages', () => {
  it('are available on the main site', () => {
    expect(isPageAvailable({ mainSiteOnly: true, countries: [] }, req(true, 'CH'))).toBe(true);
  });

  it('are a 404 on every other site, even in the ALL view', () => {
    expect(isPageAvailable({ mainSiteOnly: true, countries: [] }, req(false, 'CH'))).toBe(false);
    expect(isPageAvailable({ mainSiteOnly: true, countries: [] }, req(false, 'ALL'))).toBe(false);
  });

  it('do not affect ordinary pages on other sites', () => {
    expect(isPageAvailable({ mainSiteOnly: false, countries: [] }, req(false, 'CH'))).toBe(true);
  });
});

describe('country restriction', () => {
  const page = { mainSiteOnly: false, countries: ['CH', 'DE'] };

  it('offers a restricted page in its countries only', () => {
    expect(isPageAvailable(page, req(true, 'CH'))).toBe(true);
    expect(isPageAvailable(page, req(true, 'DE'))).toBe(true);
    expect(isPageAvailable(page, req(true, 'US'))).toBe(false);
  });

  it('offers every page in the all-countries (ALL) view', () => {
    expect(isPageAvailable(page, req(true, 'ALL'))).toBe(true);
  });

  it('offers an unrestricted page everywhere', () => {
    expect(isPageAvailable({ mainSiteOnly: false, countries: [] }, req(true, 'US'))).toBe(true);
  });
});
