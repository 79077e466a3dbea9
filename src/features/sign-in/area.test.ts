import { describe, expect, it } from 'vitest';
import { customerAreaCanonicalPath, isCustomerAreaPagePath, isCustomerAreaPath, isMisplacedSignInPage, isSignInPath } from './area.ts';

describe('customer-area paths', () => {
  it('are /{locale}/mykomax and below, in any case', () => {
    for (const p of ['/en/mykomax', '/de-ch/mykomax/account', '/en/MyKomax', '/EN/MYKOMAX/tickets/list']) expect(isCustomerAreaPath(p), p).toBe(true);
    for (const p of ['/en', '/en/mykomaxx', '/en/about/mykomax', '/mykomax', '/api/mykomax/session', '/english/mykomax']) expect(isCustomerAreaPath(p), p).toBe(false);
  });

  it('page paths below the locale', () => {
    expect(isCustomerAreaPagePath('/mykomax')).toBe(true);
    expect(isCustomerAreaPagePath('/MyKomax/account')).toBe(true);
    expect(isCustomerAreaPagePath('/about-us/mykomax')).toBe(false);
    expect(isCustomerAreaPagePath('')).toBe(false);
  });

  it('a differently cased path has a lowercase canonical spelling; ids keep their case', () => {
    expect(customerAreaCanonicalPath('/en/MyKomax')).toBe('/en/mykomax');
    expect(customerAreaCanonicalPath('/DE-CH/MYKOMAX/Account')).toBe('/de-ch/mykomax/account');
    expect(customerAreaCanonicalPath('/en/mykomax/Tickets/AbC1')).toBe('/en/mykomax/tickets/AbC1');
    expect(customerAreaCanonicalPath('/en/mykomax')).toBeNull();
    expect(customerAreaCanonicalPath('/en/mykomax/tickets/AbC1')).toBeNull();
    expect(customerAreaCanonicalPath('/en/About')).toBeNull();
  });

  it('sign-in pages are the customer area and the callback', () => {
    expect(isSignInPath('/en/mykomax/account')).toBe(true);
    expect(isSignInPath('/de/callback')).toBe(true);
    expect(isSignInPath('/en/about-us')).toBe(false);
    expect(isSignInPath('/blank-callback')).toBe(false);
  });

  it('live on the main site only: the customer area and the callback of any other site are misplaced (its 404)', () => {
    const main = { isMain: true };
    const other = { isMain: false };
    for (const p of ['/mykomax', '/mykomax/tickets/list', '/MyKomax/account', '/callback']) {
      expect(isMisplacedSignInPage(main, p), `main ${p}`).toBe(false);
      expect(isMisplacedSignInPage(other, p), `other ${p}`).toBe(true);
    }
    for (const p of ['', '/about-us', '/about-us/mykomax', '/mykomaxx', '/callbacks', '/news/callback']) {
      expect(isMisplacedSignInPage(other, p), `other ${p}`).toBe(false);
    }
  });
});
