import { describe, expect, it } from 'vitest';
import {
  COMPARISON_PATH, fileUrl, homePath, isTechnicalArea, localizedPath, MEDIA_RELEASES_PATH, mediaReleasePath, pathParts, productPath,
  SEARCH_PATH, servicePath, STORIES_PATH, STORY_CONTACTS_PATH, storyContactPath, storyPath,
} from './paths.ts';

const main = { slug: '' };
const portal = { slug: 'brand-portal' };
const de = { urlCode: 'de' };
const deCh = { urlCode: 'de-ch' };

describe('pathParts', () => {
  it('takes the last segment as slug and the one before as parent slug', () => {
    expect(pathParts(['products', 'wire-processing', 'alpha-550'])).toEqual({
      segments: ['products', 'wire-processing', 'alpha-550'],
      slug: 'alpha-550',
      parentSlug: 'wire-processing',
      pagePath: '/products/wire-processing/alpha-550',
    });
  });

  it('defaults slug and parent slug to home', () => {
    expect(pathParts([])).toEqual({ segments: [], slug: 'home', parentSlug: 'home', pagePath: '' });
    expect(pathParts(['about-us'])).toMatchObject({ slug: 'about-us', parentSlug: 'home', pagePath: '/about-us' });
  });

  it('ignores empty segments', () => {
    expect(pathParts(['', 'a', '', 'b'])).toMatchObject({ segments: ['a', 'b'], pagePath: '/a/b' });
  });
});

describe('homePath', () => {
  it("is '/' for the main site or a site on its own domain, else '/{siteSlug}'", () => {
    expect(homePath({ slug: '' } as never)).toBe('/');
    expect(homePath({ slug: 'brand-portal' } as never)).toBe('/brand-portal');
  });
});

describe('localizedPath', () => {
  it('puts the locale and the site slug in front of the page path', () => {
    expect(localizedPath(main, deCh, '/about-us')).toBe('/de-ch/about-us');
    expect(localizedPath(portal, de, '/logos')).toBe('/de/brand-portal/logos');
  });

  it('gives the home page for an empty path or /', () => {
    expect(localizedPath(main, de)).toBe('/de');
    expect(localizedPath(main, de, '/')).toBe('/de');
    expect(localizedPath(portal, de, '')).toBe('/de/brand-portal');
  });

  it('adds the missing slash of a relative page path', () => {
    expect(localizedPath(main, de, 'contact')).toBe('/de/contact');
  });
});

describe('isTechnicalArea', () => {
  it('is true for style-guide and callback only', () => {
    expect(isTechnicalArea(['style-guide', 'buttons'])).toBe(true);
    expect(isTechnicalArea(['callback'])).toBe(true);
    expect(isTechnicalArea(['about-us', 'callback'])).toBe(false);
    expect(isTechnicalArea([])).toBe(false);
  });
});

describe('route builders', () => {
  it('give site-relative paths and encode the slug', () => {
    expect(storyPath('carpatia-doubles-crimping-output')).toBe('/stories/carpatia-doubles-crimping-output');
    expect(storyContactPath('jonas-baumann')).toBe('/stories/contacts/jonas-baumann');
    expect(mediaReleasePath('a b')).toBe('/media-releases/a%20b');
    expect(productPath('kappa-310')).toBe('/products/kappa-310');
    expect(servicePath('a/b')).toBe('/services/a%2Fb');
  });

  it('name the fixed routes', () => {
    expect([STORIES_PATH, STORY_CONTACTS_PATH, MEDIA_RELEASES_PATH, SEARCH_PATH, COMPARISON_PATH]).toEqual(['/stories', '/stories/contacts', '/media-releases', '/search', '/comparison']);
    expect(localizedPath(portal, deCh, COMPARISON_PATH)).toBe('/de-ch/brand-portal/comparison');
  });
});

describe('fileUrl', () => {
  it('is root-relative and names the language unless it is English', () => {
    expect(fileUrl('annual-report', 'en')).toBe('/file/annual-report');
    expect(fileUrl('annual-report', '')).toBe('/file/annual-report');
    expect(fileUrl('annual-report', 'de')).toBe('/file/annual-report?l=de');
    expect(fileUrl('a b', 'pt-br')).toBe('/file/a%20b?l=pt-br');
  });
});
