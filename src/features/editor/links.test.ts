import { describe, expect, it } from 'vitest';
import { editorHref, previewHref } from './links.ts';

const main = { id: 'site-main', slug: '', domains: [{ host: 'localhost', slug: null }, { host: 'komax.example', slug: null }] };
const portal = { id: 'site-brand-portal', slug: 'brand-portal', domains: [{ host: 'localhost', slug: 'brand-portal' }, { host: 'komax.example', slug: 'brand-portal' }] };
const events = { id: 'site-events-na', slug: '', domains: [{ host: 'events.localhost', slug: null }, { host: 'events.komax.example', slug: null }] };
const sites = [main, portal, events];
const here = new URL('http://localhost:4321/en/editor?site=site-main');

describe('previewHref', () => {
  it('links a main-site page with the chosen stage', () => {
    expect(previewHref({ id: 'p', path: '/sustainability', siteId: 'site-main' }, 'DRAFT', { site: main, main, locale: { urlCode: 'en' }, sites, here })).toBe('/en/sustainability?preview=DRAFT');
    expect(previewHref({ id: 'p', path: '', siteId: 'site-main' }, 'PUBLISHED', { site: main, main, locale: { urlCode: 'de' }, sites, here })).toBe('/de?preview=PUBLISHED');
  });
  it('keeps the slug of a site on the main host and goes to a site on its own domain through the handoff', () => {
    expect(previewHref({ id: 'p', path: '/logos', siteId: 'site-brand-portal' }, 'DRAFT', { site: portal, main, locale: { urlCode: 'en' }, sites, here })).toBe('/en/brand-portal/logos?preview=DRAFT');
    expect(previewHref({ id: 'p', path: '/webinars', siteId: 'site-events-na' }, 'DRAFT', { site: events, main, locale: { urlCode: 'es' }, sites, here })).toBe('/api/editor/preview-handoff?to=http%3A%2F%2Fevents.localhost%3A4321%2Fes%2Fwebinars%3Fpreview%3DDRAFT');
    expect(previewHref({ id: 'p', path: '/x', siteId: 'site-events-na' }, 'PUBLISHED', { site: events, main, locale: { urlCode: 'en' }, sites, here: new URL('https://komax.example/en/editor') })).toBe('/api/editor/preview-handoff?to=https%3A%2F%2Fevents.komax.example%2Fen%2Fx%3Fpreview%3DPUBLISHED');
  });
  it('previews a global page on the chosen site', () => {
    expect(previewHref({ id: 'p', path: '/imprint', siteId: null }, 'DRAFT', { site: portal, main, locale: { urlCode: 'en' }, sites, here })).toBe('/en/brand-portal/imprint?preview=DRAFT');
  });
});

describe('editorHref', () => {
  it('puts the choice into the query', () => {
    expect(editorHref(main, { urlCode: 'de-ch' })).toBe('/de-ch/editor');
    expect(editorHref(main, { urlCode: 'en' }, { site: 'site-main', lang: 'de', stage: 'DRAFT' })).toBe('/en/editor?site=site-main&lang=de&stage=DRAFT');
  });
});
