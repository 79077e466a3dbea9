import { describe, expect, it } from 'vitest';
import { errorPageHome, errorPageLanguage, errorPageStatus, errorPageTitle, RETRY_AFTER_SECONDS } from './error-page.ts';

describe('the error page', () => {
  it('speaks the language of the URL locale prefix, English otherwise', () => {
    expect(errorPageLanguage('/de/about-us')).toBe('de');
    expect(errorPageLanguage('/fr-ch/x')).toBe('fr');
    expect(errorPageLanguage('/DE-CH')).toBe('de');
    expect(errorPageLanguage('/it/chi-siamo')).toBe('en');
    expect(errorPageLanguage('/style-guide')).toBe('en');
    expect(errorPageLanguage('/')).toBe('en');
  });

  it('links home to the locale of the URL, else the root', () => {
    expect(errorPageHome('/de-ch/stories')).toBe('/de-ch');
    expect(errorPageHome('/api/news-feed')).toBe('/');
  });

  it('answers 503 with Retry-After for an unavailable service, 500 otherwise', () => {
    // src/lib's ServiceError sets `unavailable` (src/lib/graphql/query.test.ts); this is its shape.
    const down = Object.assign(new Error('Content hub unreachable: no answer within 5000 ms'), { unavailable: true });
    expect(errorPageStatus(down)).toEqual({ status: 503, retryAfter: RETRY_AFTER_SECONDS });
    expect(errorPageStatus(new Error('render failed', { cause: down })).status).toBe(503);
    expect(errorPageStatus(Object.assign(new Error('Unknown field'), { unavailable: false }))).toEqual({ status: 500 });
    expect(errorPageStatus(new TypeError('x is undefined'))).toEqual({ status: 500 });
  });

  it('is titled with the error breadcrumb title and the brand', () => {
    expect(errorPageTitle('Fehler', undefined)).toBe('Fehler | Komax');
    expect(errorPageTitle('Error', 'Komax Brand Portal')).toBe('Error | Komax Brand Portal');
  });
});
