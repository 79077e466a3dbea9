import { describe, expect, it } from 'vitest';
import { isMisplacedSignInPage, isSignInPath } from './area.ts';

describe('sign-in paths', () => {
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
