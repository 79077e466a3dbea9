import { describe, expect, it } from 'vitest';
import { isBlockedTarget, resolveLink, type LinkContext } from './links.ts';
import type { Link } from './navigation-types.ts';

const link = (extra: Partial<Link>): Link => ({
  text: null, page: null, path: null, url: null, productSlug: null, serviceSlug: null,
  pageParameters: null, openInNewTab: false, ...extra,
});

const main = { id: 'main', slug: '', domains: [{ host: 'localhost', slug: null }] };
const portal = { id: 'portal', slug: 'brand-portal', domains: [{ host: 'localhost', slug: 'brand-portal' }] };
const events = { id: 'events', slug: '', domains: [{ host: 'events.localhost', slug: null }, { host: 'events.komax.example', slug: null }] };
const ctx: LinkContext = { site: main, locale: { urlCode: 'de-ch' }, sites: [main, portal, events] };

describe('page links', () => {
  it('a page of a site on another host gets an absolute link to that host (same port locally)', () => {
    const resolved = resolveLink(
      link({ page: { id: 'p', path: '/webinars', siteId: 'events', title: null } }),
      { ...ctx, here: new URL('http://localhost:4321/de-ch/about-us') },
    );
    expect(resolved).toEqual({ kind: 'external', href: 'http://events.localhost:4321/de-ch/webinars', newTab: false });
  });

  it('a page of a site on the same host stays a path', () => {
    const resolved = resolveLink(
      link({ page: { id: 'p', path: '/logos', siteId: 'portal', title: null } }),
      { ...ctx, here: new URL('http://localhost:4321/de-ch') },
    );
    expect(resolved).toEqual({ kind: 'internal', href: '/de-ch/brand-portal/logos', newTab: false });
  });

  it('link to the page in the current locale', () => {
    expect(resolveLink(link({ page: { id: 'p1', path: '/about-us', siteId: 'main', title: 'About' } }), ctx))
      .toEqual({ kind: 'internal', href: '/de-ch/about-us', newTab: false });
  });

  it("use the other site's slug for a page of another site", () => {
    expect(resolveLink(link({ page: { id: 'p2', path: '/logos', siteId: 'portal', title: 'Logos' } }), ctx))
      .toEqual({ kind: 'internal', href: '/de-ch/brand-portal/logos', newTab: false });
  });

  it('use the current site for a global page (no site)', () => {
    const onPortal: LinkContext = { ...ctx, site: portal };
    expect(resolveLink(link({ page: { id: 'p3', path: '/imprint', siteId: null, title: 'Imprint' } }), onPortal))
      .toMatchObject({ href: '/de-ch/brand-portal/imprint' });
  });

  it('link a home page to the site home', () => {
    expect(resolveLink(link({ page: { id: 'h', path: '', siteId: 'portal', title: 'Home' } }), ctx))
      .toMatchObject({ href: '/de-ch/brand-portal' });
  });
});

describe('path, url, product and service links', () => {
  it('localize a site-relative path', () => {
    expect(resolveLink(link({ path: '/contact', openInNewTab: true }), ctx)).toEqual({ kind: 'internal', href: '/de-ch/contact', newTab: true });
  });

  it('keep http(s) URLs as full-page links', () => {
    expect(resolveLink(link({ url: 'https://example.com/x' }), ctx)).toEqual({ kind: 'external', href: 'https://example.com/x', newTab: false });
    expect(resolveLink(link({ url: 'http://example.com' }), ctx)).toMatchObject({ kind: 'external', href: 'http://example.com' });
  });

  it('link a product slug and a service slug into the catalogues', () => {
    expect(resolveLink(link({ productSlug: 'alpha 550' }), ctx)).toMatchObject({ kind: 'internal', href: '/de-ch/products/alpha%20550' });
    expect(resolveLink(link({ serviceSlug: 'training' }), ctx)).toMatchObject({ kind: 'internal', href: '/de-ch/services/training' });
  });

  it('prefer page over path over url over product over service', () => {
    const all = link({
      page: { id: 'p', path: '/page', siteId: 'main', title: '' }, path: '/path', url: 'https://u.example', productSlug: 'prod', serviceSlug: 'svc',
    });
    expect(resolveLink(all, ctx)).toMatchObject({ href: '/de-ch/page' });
    expect(resolveLink({ ...all, page: null }, ctx)).toMatchObject({ href: '/de-ch/path' });
    expect(resolveLink({ ...all, page: null, path: null }, ctx)).toMatchObject({ href: 'https://u.example' });
    expect(resolveLink({ ...all, page: null, path: null, url: null }, ctx)).toMatchObject({ href: '/de-ch/products/prod' });
    expect(resolveLink({ ...all, page: null, path: null, url: null, productSlug: null }, ctx)).toMatchObject({ href: '/de-ch/services/svc' });
  });

  it('give null for no link or a link without any target', () => {
    expect(resolveLink(null, ctx)).toBeNull();
    expect(resolveLink(undefined, ctx)).toBeNull();
    expect(resolveLink(link({}), ctx)).toBeNull();
    expect(resolveLink(link({ url: 'relative/thing' }), ctx)).toBeNull();
  });
});

describe('pageParameters', () => {
  it('are appended as a query string', () => {
    expect(resolveLink(link({ path: '/contact', pageParameters: { topic: 'sales', region: 'eu & us' } }), ctx))
      .toMatchObject({ href: '/de-ch/contact?topic=sales&region=eu+%26+us' });
  });

  it('join an existing query and stay before the hash', () => {
    expect(resolveLink(link({ url: 'https://example.com/a?x=1#part', pageParameters: { y: '2' } }), ctx))
      .toMatchObject({ href: 'https://example.com/a?x=1&y=2#part' });
  });

  it('leave the href alone when empty', () => {
    expect(resolveLink(link({ path: '/contact', pageParameters: {} }), ctx)).toMatchObject({ href: '/de-ch/contact' });
  });
});

describe('action: targets', () => {
  it('become in-app actions, without parameters', () => {
    expect(resolveLink(link({ url: 'action:openNewsFeed', pageParameters: { a: 'b' } }), ctx)).toEqual({ kind: 'action', action: 'openNewsFeed' });
    expect(resolveLink(link({ path: 'action:somethingElse' }), ctx)).toEqual({ kind: 'action', action: 'somethingElse' });
  });
});

describe('hard: targets', () => {
  it('are full-page links with the prefix removed', () => {
    expect(resolveLink(link({ url: 'hard:/de-ch/mykomax' }), ctx)).toEqual({ kind: 'external', href: '/de-ch/mykomax', newTab: false });
    expect(resolveLink(link({ path: 'hard:https://shop.example' }), ctx)).toMatchObject({ kind: 'external', href: 'https://shop.example' });
  });

  it('give null when nothing follows the prefix', () => {
    expect(resolveLink(link({ url: 'hard:' }), ctx)).toBeNull();
  });

  it('cannot smuggle a blocked protocol', () => {
    expect(resolveLink(link({ url: 'hard:javascript:alert(1)' }), ctx)).toBeNull();
    expect(resolveLink(link({ url: 'hard: JavaScript:alert(1)' }), ctx)).toBeNull();
  });

  it('cannot smuggle a blocked protocol past the check with characters a browser strips from a URL', () => {
    // Browsers remove tabs and newlines anywhere in a URL and leading control characters.
    expect(resolveLink(link({ url: 'hard:java\tscript:alert(1)' }), ctx)).toBeNull();
    expect(resolveLink(link({ url: 'hard:java\nscript:alert(1)' }), ctx)).toBeNull();
    expect(resolveLink(link({ url: 'hard:\u0001javascript:alert(1)' }), ctx)).toBeNull();
  });
});

describe('blocked protocols', () => {
  it.each([
    'javascript:alert(1)', 'data:text/html,<script>1</script>', 'blob:https://x/1', 'vbscript:msgbox(1)',
    'JAVASCRIPT:alert(1)', 'Data:text/html,x', '   javascript:alert(1)', '\tvbscript:x', 'java\tscript:alert(1)', '\u0000javascript:x',
  ])('blocks %j', (target) => {
    expect(isBlockedTarget(target)).toBe(true);
    expect(resolveLink(link({ url: target }), ctx)).toBeNull();
    expect(resolveLink(link({ path: target }), ctx)).toBeNull();
  });

  it.each(['https://example.com/javascript:x', '/data:thing', 'mailto:info@example.com'])('allows %j', (target) => {
    expect(isBlockedTarget(target)).toBe(false);
  });

  it('still renders mailto: and tel: links as full-page links', () => {
    expect(resolveLink(link({ url: 'mailto:info@example.com' }), ctx)).toMatchObject({ kind: 'external', href: 'mailto:info@example.com' });
    expect(resolveLink(link({ url: 'tel:+41411234567' }), ctx)).toMatchObject({ kind: 'external', href: 'tel:+41411234567' });
  });

  it('a page the visitor\'s country is not offered is no link (it would be a 404); the international view links it', () => {
    const link = { text: null, page: { id: 'p', path: '/industries/aerospace', siteId: null, title: null, countries: ['US', 'CA'] }, path: null, url: null, productSlug: null, serviceSlug: null, pageParameters: null, openInNewTab: false };
    const ctx = { site: { id: 'main', slug: '' }, locale: { urlCode: 'zh-cn' } };
    expect(resolveLink(link, { ...ctx, country: 'CN' })).toBeNull();
    expect(resolveLink(link, { ...ctx, country: 'US' })).toMatchObject({ href: '/zh-cn/industries/aerospace' });
    expect(resolveLink(link, { ...ctx, country: 'ALL' })).toMatchObject({ href: '/zh-cn/industries/aerospace' });
    expect(resolveLink(link, ctx)).toMatchObject({ href: '/zh-cn/industries/aerospace' });
  });
});
