import { describe, expect, it } from 'vitest';
import { HEADER_ONLY_CSP, withCspMeta as withCspMetaBytes, withHeaderOnlyDirectives } from './headers.ts';

const withCspMeta = (html: string, csp: string | null) => withCspMetaBytes(Buffer.from(html), csp).toString('utf8');

describe('withHeaderOnlyDirectives', () => {
  it("appends frame-ancestors 'none' to a policy", () => {
    expect(HEADER_ONLY_CSP).toBe("frame-ancestors 'none'");
    expect(withHeaderOnlyDirectives("default-src 'self'; script-src 'self'")).toBe("default-src 'self'; script-src 'self'; frame-ancestors 'none'");
  });

  it('does not leave a double separator after a trailing semicolon or spaces', () => {
    expect(withHeaderOnlyDirectives("default-src 'self';  ")).toBe("default-src 'self'; frame-ancestors 'none'");
  });

  it('keeps a policy that already sets frame-ancestors', () => {
    expect(withHeaderOnlyDirectives("default-src 'self'; frame-ancestors 'self'")).toBe("default-src 'self'; frame-ancestors 'self'");
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
