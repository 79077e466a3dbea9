import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { cspForPage, ensureCspHeader, FALLBACK_CSP, HEADER_ONLY_CSP, withCspMeta as withCspMetaBytes, withHeaderOnlyDirectives } from './headers.ts';
import { inject } from '../../../tests/support/node-http.ts';

const withCspMeta = (html: string, csp: string | null) => withCspMetaBytes(Buffer.from(html), csp).toString('utf8');

describe('withHeaderOnlyDirectives', () => {
  const added = "frame-ancestors 'none'; report-uri /api/csp-report; report-to csp-endpoint";

  it("appends frame-ancestors 'none' and the reporting directives to a policy", () => {
    expect(HEADER_ONLY_CSP).toBe(added);
    expect(withHeaderOnlyDirectives("default-src 'self'; script-src 'self'")).toBe(`default-src 'self'; script-src 'self'; ${added}`);
  });

  it('does not leave a double separator after a trailing semicolon or spaces', () => {
    expect(withHeaderOnlyDirectives("default-src 'self';  ")).toBe(`default-src 'self'; ${added}`);
  });

  it('keeps a directive the policy sets itself, adding only the missing ones', () => {
    expect(withHeaderOnlyDirectives("default-src 'self'; frame-ancestors 'self'")).toBe("default-src 'self'; frame-ancestors 'self'; report-uri /api/csp-report; report-to csp-endpoint");
    expect(withHeaderOnlyDirectives(FALLBACK_CSP)).toBe(FALLBACK_CSP);
  });

  it('is idempotent', () => {
    const once = withHeaderOnlyDirectives("default-src 'self'");
    expect(withHeaderOnlyDirectives(once)).toBe(once);
  });
});

describe('ensureCspHeader', () => {
  const send = (handler: (res: ServerResponse) => void) => inject((_req, res) => {
    ensureCspHeader(res);
    handler(res);
  }, { url: '/' });

  it('gives a response without a policy the fallback, on an implicit head too', async () => {
    expect((await send((res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'))).headers['content-security-policy']).toBe(FALLBACK_CSP);
    expect((await send((res) => { res.statusCode = 204; res.end(); })).headers['content-security-policy']).toBe(FALLBACK_CSP);
    expect((await send((res) => res.writeHead(304, ['ETag', '"x"']).end())).headers['content-security-policy']).toBe(FALLBACK_CSP);
  });

  it('adds the header-only directives to a policy set before or passed to writeHead, without changing a list it was given', async () => {
    const set = await send((res) => { res.setHeader('Content-Security-Policy', "default-src 'self'"); res.end('x'); });
    expect(set.headers['content-security-policy']).toBe(withHeaderOnlyDirectives("default-src 'self'"));
    const passed = await send((res) => res.writeHead(200, { 'content-security-policy': "script-src 'self'" }).end());
    expect(passed.headers['content-security-policy']).toBe(withHeaderOnlyDirectives("script-src 'self'"));
    const list = ['Content-Security-Policy', "img-src 'self'"];
    const flat = await send((res) => res.writeHead(200, list).end());
    expect(flat.headers['content-security-policy']).toBe(withHeaderOnlyDirectives("img-src 'self'"));
    expect(list).toEqual(['Content-Security-Policy', "img-src 'self'"]);
  });
});

describe('withCspMeta', () => {
  const html = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>x</title></head><body></body></html>';

  it('puts the policy right after the charset meta tag, escaped for an attribute', () => {
    const out = withCspMeta(html, `default-src 'self'; img-src https://a.example/?a=1&b="2"`);
    expect(out).toBe(
      '<!DOCTYPE html><html><head><meta charset="utf-8">'
      + `<meta http-equiv="content-security-policy" content="default-src 'self'; img-src https://a.example/?a=1&amp;b=&quot;2&quot;">`
      + '<title>x</title></head><body></body></html>',
    );
  });

  it('keeps multi-byte text intact around the insertion', () => {
    const page = '<html lang="de-CH" data-x="Grösse – ü"><head><meta charset="utf-8"><title>Stecker & Kabel – Grösse</title>';
    expect(withCspMeta(page, "default-src 'self'")).toBe(page.replace('<meta charset="utf-8">', `<meta charset="utf-8"><meta http-equiv="content-security-policy" content="default-src 'self'">`));
  });

  it('finds the charset tag whatever its case', () => {
    expect(withCspMeta(html.replace('utf-8', 'UTF-8'), "default-src 'self'")).toContain('<meta http-equiv="content-security-policy"');
  });

  it('leaves the page alone without a policy or when it already has one', () => {
    expect(withCspMeta(html, null)).toBe(html);
    const withMeta = html.replace('<title>', `<meta http-equiv="Content-Security-Policy" content="x"><title>`);
    expect(withCspMeta(withMeta, "default-src 'self'")).toBe(withMeta);
  });
});

describe('cspForPage', () => {
  const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
  const style = 'body{color:#123}';
  const script = 'console.log("ü")';
  const other = hash('.elsewhere{}');
  const astro = `default-src 'self';img-src 'self' data:; script-src 'self' ${hash(script)} ${hash('otherScript()')}; style-src 'self' ${hash(style)} ${other}`;

  it("keeps only the hashes of the page's own inline scripts and styles (multi-byte text hashed as bytes)", () => {
    const html = Buffer.from(`<html><head><style data-x>${style}</style></head><body><script type="module">${script}</script><script src="/a.js"></script></body></html>`);
    expect(cspForPage(html, astro)).toBe(`default-src 'self';img-src 'self' data:; script-src 'self' ${hash(script)}; style-src 'self' ${hash(style)}`);
  });

  it('never adds a hash Astro did not list, and keeps every other source', () => {
    const html = Buffer.from('<style>.injected{}</style><script>alert(1)</script>');
    expect(cspForPage(html, astro)).toBe(`default-src 'self';img-src 'self' data:; script-src 'self'; style-src 'self'`);
  });

  it('does not count an external script as inline', () => {
    const html = Buffer.from(`<script src="/x.js">${script}</script>`);
    expect(cspForPage(html, astro)).not.toContain(hash(script));
  });
});
