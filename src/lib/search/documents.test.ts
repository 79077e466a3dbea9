import { describe, expect, it } from 'vitest';
import { groupDocuments, indexKey, localizeUrl, prepareDocument, searchSiteKey } from './documents.ts';
import { normalizeQuery, parseSearchRequest, parseSuggestRequest } from './request.ts';
import { SearchError, type SearchDocument } from './types.ts';

const doc = (over: Partial<SearchDocument>): SearchDocument => ({
  id: 'p1', url: '/de/a', title: 'A | Komax', description: ' Eine\n Beschreibung ', body: 'Text', site: '', locale: 'de', ...over,
});


describe('documents', () => {
  it('prepares a document: brand stripped, whitespace collapsed, language from the locale', () => {
    expect(prepareDocument(doc({ locale: 'de-CH' }))).toMatchObject({ title: 'A', description: 'Eine Beschreibung', language: 'de', countries: [] });
    expect(() => prepareDocument(doc({ locale: 'it' }))).toThrow(SearchError);
    expect(() => prepareDocument(doc({ site: 'Bad Slug' }))).toThrow(/site slug/);
  });

  it('indexes a page once per (site, language), preferring its international URL', () => {
    const groups = groupDocuments([
      doc({ url: '/de-ch/a' }),
      doc({ url: '/de/a' }),
      doc({ url: '/de-de/a' }),
      doc({ id: 'p2', url: '/de/portal/b', site: 'portal' }),
      doc({ url: '/en/a', locale: 'en' }),
    ]);
    expect([...groups.keys()].sort()).toEqual(['_main/de', '_main/en', 'portal/de']);
    expect(groups.get('_main/de')!.map((d) => d.url)).toEqual(['/de/a']);
    expect(indexKey('', 'de')).toBe('_main/de');
  });

  it("infers a page's countries from the locales it was prerendered under", () => {
    const groups = groupDocuments([
      doc({ id: 'all', url: '/de/all' }), doc({ id: 'all', url: '/de-ch/all' }), doc({ id: 'all', url: '/de-de/all' }),
      doc({ id: 'de-only', url: '/de/d' }), doc({ id: 'de-only', url: '/de-de/d' }),
      doc({ id: 'intl-only', url: '/de/i' }),
      doc({ id: 'explicit', url: '/de/e', countries: ['at'] }),
    ]);
    const countries = Object.fromEntries(groups.get('_main/de')!.map((d) => [d.id, d.countries]));
    expect(countries).toEqual({ 'all': [], 'de-only': ['DE'], 'intl-only': ['ALL'], 'explicit': ['AT'] });
    // A language published under its international locale only: nothing to restrict.
    expect(groupDocuments([doc({ url: '/de/a' })]).get('_main/de')![0]!.countries).toEqual([]);
  });

  it('keys sites apart, own-domain sites by technical name', () => {
    expect(searchSiteKey({ isMain: true, slug: '', technicalName: 'komax' })).toBe('');
    expect(searchSiteKey({ isMain: false, slug: 'brand-portal', technicalName: 'brand_portal' })).toBe('brand-portal');
    expect(searchSiteKey({ isMain: false, slug: '', technicalName: 'komax_events_north_america' })).toBe('komax_events_north_america');
  });

  it("moves result URLs to the searcher's locale", () => {
    expect(localizeUrl('/de/produkte/x', 'de', 'de-CH')).toBe('/de-ch/produkte/x');
    expect(localizeUrl('/de-de/produkte/x', 'de', 'de')).toBe('/de/produkte/x');
    expect(localizeUrl('/de', 'de', 'de-AT')).toBe('/de-at');
    expect(localizeUrl('/en/x', 'de', 'de-CH')).toBe('/en/x');
    expect(localizeUrl('https://example.com/de/x', 'de', 'de-CH')).toBe('https://example.com/de/x');
  });
});

describe('requests', () => {
  it('defaults the page to 1 and trims the query', () => {
    expect(parseSearchRequest({ localeCode: 'de-CH', siteSlug: '', query: ' Kabel ' })).toEqual({ localeCode: 'de-CH', siteSlug: '', query: ' Kabel ', page: 1 });
    expect(normalizeQuery({ localeCode: 'de-CH', siteSlug: '', query: ' Kabel ' })).toEqual({ localeCode: 'de-CH', language: 'de', country: 'CH', site: '', query: 'Kabel', page: 1 });
    expect(parseSuggestRequest({ localeCode: 'en', query: 'ca', page: 3 })).toEqual({ localeCode: 'en', siteSlug: '', query: 'ca' });
  });

  it('rejects malformed requests with invalid-request', () => {
    const bad = [null, [], 'x', { localeCode: 'de', query: 1 }, { localeCode: 'de', page: 0 }, { localeCode: 'de', page: 1.5 }, { localeCode: 'de', page: 101 }, { localeCode: 'de', siteSlug: '../x' }];
    for (const body of bad) expect(() => parseSearchRequest(body), JSON.stringify(body)).toThrow(expect.objectContaining({ code: 'invalid-request' }));
    expect(() => parseSearchRequest({ localeCode: 'it', query: 'x' })).toThrow(expect.objectContaining({ code: 'unknown-locale', status: 400 }));
  });

  it('cuts overlong queries', () => {
    expect(normalizeQuery({ localeCode: 'de', siteSlug: '', query: 'a'.repeat(500) }).query).toHaveLength(200);
  });
});
