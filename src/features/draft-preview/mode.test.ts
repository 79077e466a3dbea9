import { describe, expect, it } from 'vitest';
import { exitPreviewHref, previewCookieHeader, previewDecision, withoutPreviewParam } from './mode.ts';

describe('previewDecision: the preview-mode rule', () => {
  it('renders DRAFT only for an editor who holds the preview cookie', () => {
    expect(previewDecision({ param: null, cookie: 'DRAFT', editor: true })).toEqual({ kind: 'render', stage: 'DRAFT', clearCookie: false });
    expect(previewDecision({ param: null, cookie: undefined, editor: true })).toEqual({ kind: 'render', stage: 'PUBLISHED', clearCookie: false });
    expect(previewDecision({ param: null, cookie: undefined, editor: false })).toEqual({ kind: 'render', stage: 'PUBLISHED', clearCookie: false });
  });

  it('treats a preview cookie without a valid editor cookie as a visitor and clears it', () => {
    expect(previewDecision({ param: null, cookie: 'DRAFT', editor: false })).toEqual({ kind: 'render', stage: 'PUBLISHED', clearCookie: true });
    // A value the app never sets is stale too, editor or not.
    expect(previewDecision({ param: null, cookie: 'PUBLISHED', editor: true })).toEqual({ kind: 'render', stage: 'PUBLISHED', clearCookie: true });
  });

  it('enters the preview with ?preview=DRAFT (any case) for an editor only', () => {
    expect(previewDecision({ param: 'DRAFT', cookie: undefined, editor: true })).toEqual({ kind: 'redirect', cookie: 'set' });
    expect(previewDecision({ param: 'draft', cookie: 'DRAFT', editor: true })).toEqual({ kind: 'redirect', cookie: 'set' });
    // A visitor's parameter is ignored: the published page, no redirect, no cookie.
    expect(previewDecision({ param: 'DRAFT', cookie: undefined, editor: false })).toEqual({ kind: 'render', stage: 'PUBLISHED', clearCookie: false });
  });

  it('leaves the preview with ?preview=PUBLISHED or ?preview=off', () => {
    for (const param of ['PUBLISHED', 'off', 'OFF', 'published']) {
      expect(previewDecision({ param, cookie: 'DRAFT', editor: true })).toEqual({ kind: 'redirect', cookie: 'clear' });
      expect(previewDecision({ param, cookie: 'DRAFT', editor: false })).toEqual({ kind: 'redirect', cookie: 'clear' });
      expect(previewDecision({ param, cookie: undefined, editor: true })).toEqual({ kind: 'redirect', cookie: 'clear' });
    }
    // A visitor without the cookie has nothing to leave: the parameter is ignored.
    expect(previewDecision({ param: 'off', cookie: undefined, editor: false })).toEqual({ kind: 'render', stage: 'PUBLISHED', clearCookie: false });
  });

  it('ignores any other value of the parameter', () => {
    expect(previewDecision({ param: 'yes', cookie: 'DRAFT', editor: true })).toEqual({ kind: 'render', stage: 'DRAFT', clearCookie: false });
    expect(previewDecision({ param: '', cookie: undefined, editor: true })).toEqual({ kind: 'render', stage: 'PUBLISHED', clearCookie: false });
  });
});

describe('preview URLs and cookies', () => {
  it('drops only the preview parameter', () => {
    expect(withoutPreviewParam(new URL('http://localhost/en/about-us?preview=DRAFT'))).toBe('/en/about-us');
    expect(withoutPreviewParam(new URL('http://localhost/en/stories?category=tech&preview=DRAFT&page=2'))).toBe('/en/stories?category=tech&page=2');
  });

  it('builds the exit link on the same page', () => {
    expect(exitPreviewHref(new URL('http://localhost/en/about-us'))).toBe('/en/about-us?preview=PUBLISHED');
    expect(exitPreviewHref(new URL('http://localhost/en/stories?category=tech'))).toBe('/en/stories?category=tech&preview=PUBLISHED');
  });

  it('sets a session cookie (no Max-Age), HttpOnly and SameSite=Lax, Secure outside localhost', () => {
    const local = previewCookieHeader('set', new URL('http://localhost:4321/en'));
    expect(local).toBe('kmx_preview=DRAFT; Path=/; HttpOnly; SameSite=Lax');
    expect(previewCookieHeader('set', new URL('https://www.komax.com/en'))).toBe('kmx_preview=DRAFT; Path=/; HttpOnly; SameSite=Lax; Secure');
    expect(previewCookieHeader('clear', new URL('https://events.komax.com/en'))).toBe('kmx_preview=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure');
  });
});
