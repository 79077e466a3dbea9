import { describe, expect, it } from 'vitest';
import { elementsOf, gradeOf, observatoryGrade, parseCsp, type ObservedResponse } from './observatory.ts';

// The rules of the MDN HTTP Observatory (see observatory.ts), case by case; main.test.ts and the
// e2e suite grade the headers our server really sends with them.

const URL_ = 'https://www.komax.example/en';
const STRICT: Record<string, string> = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-resource-policy': 'same-site',
  'cross-origin-opener-policy': 'same-origin',
  'content-type': 'text/html; charset=utf-8',
};
const grade = (headers: Record<string, string | string[] | undefined>, more: Partial<ObservedResponse> = {}) => observatoryGrade({
  response: { url: URL_, status: 200, headers, body: '', ...more },
  httpRedirects: [{ url: 'http://www.komax.example/en' }, { url: URL_ }],
});
const test = (headers: Record<string, string | string[] | undefined>, name: string, more: Partial<ObservedResponse> = {}) => grade(headers, more).tests[name];
const without = (name: string) => Object.fromEntries(Object.entries(STRICT).filter(([k]) => k !== name));

describe('observatoryGrade', () => {
  it('adds the bonuses to 100 when no test fails: default-src none +10, XFO +5, referrer +5, CORP +10, COOP +10', () => {
    const result = grade(STRICT);
    expect(result.score).toBe(140);
    expect(result.grade).toBe('A+');
    expect(Object.values(result.tests).every((t) => t.modifier >= 0)).toBe(true);
  });

  it('grades a site without any security header F', () => {
    const result = observatoryGrade({ response: { url: URL_, status: 200, headers: { 'content-type': 'text/html' }, body: '<p>hi</p>' }, httpRedirects: [{ url: 'http://www.komax.example/en' }] });
    // CSP -25, HSTS -20, XCTO -5, XFO -20, redirection -20: bonuses are not counted below 90.
    expect([result.score, result.grade]).toEqual([10, 'F']);
  });

  it('keeps the bonuses only when the score without them is at least 90', () => {
    // HSTS of a month: -10, so 90 without bonuses: they count.
    expect(grade({ ...STRICT, 'strict-transport-security': 'max-age=2592000' }).score).toBe(130);
    // No HSTS: -20, 80: bonuses dropped.
    expect(grade(without('strict-transport-security')).score).toBe(80);
  });

  it('maps scores to grades in steps of five', () => {
    expect([100, 135, 99, 95, 90, 89, 80, 75, 64, 55, 45, 40, 34, 25, 24, 0, -20].map(gradeOf)).toEqual(['A+', 'A+', 'A', 'A', 'A', 'A-', 'B+', 'B', 'C+', 'C', 'C-', 'D+', 'D', 'D-', 'F', 'F', 'F']);
  });
});

describe('CSP rules', () => {
  const csp = (policy: string, more: Partial<ObservedResponse> = {}) => test({ ...STRICT, 'content-security-policy': policy }, 'content-security-policy', more)!.result;

  it("rewards a policy without unsafe sources, more with default-src 'none'", () => {
    expect(csp("default-src 'self'; object-src 'none'")).toBe('csp-implemented-with-no-unsafe');
    expect(csp("default-src 'none'; script-src 'self'")).toBe('csp-implemented-with-no-unsafe-default-src-none');
  });

  it("fails 'unsafe-inline' or data: in script-src (unless a hash or nonce makes browsers ignore it), and broad object-src", () => {
    expect(csp("default-src 'self'; script-src 'self' 'unsafe-inline'")).toBe('csp-implemented-with-unsafe-inline');
    expect(csp("default-src 'self'; script-src 'self' data:")).toBe('csp-implemented-with-unsafe-inline');
    expect(csp("default-src 'self'; script-src 'self' 'unsafe-inline' 'sha256-abc'")).toBe('csp-implemented-with-no-unsafe');
    expect(csp("default-src 'self'; object-src https:")).toBe('csp-implemented-with-unsafe-inline');
    expect(csp("img-src 'self'")).toBe('csp-implemented-with-unsafe-inline');
  });

  it("tolerates unsafe styles only (no bonus), fails 'unsafe-eval' and http: sources on an https site", () => {
    expect(csp("default-src 'self'; style-src 'self' 'unsafe-inline'")).toBe('csp-implemented-with-unsafe-inline-in-style-src-only');
    expect(csp("default-src 'self'; script-src 'self' 'unsafe-eval'")).toBe('csp-implemented-with-unsafe-eval');
    expect(csp("default-src 'self'; img-src 'self' http://127.0.0.1:*")).toBe('csp-implemented-with-insecure-scheme-in-passive-content-only');
    expect(csp("default-src 'self'; connect-src http://api.example")).toBe('csp-implemented-with-insecure-scheme');
    expect(csp("default-src 'self'; img-src http://127.0.0.1:*", { url: 'http://localhost/en' })).toBe('csp-implemented-with-no-unsafe');
  });

  it("needs a hash or nonce with 'strict-dynamic', and drops host sources then", () => {
    expect(csp("default-src 'self'; script-src 'strict-dynamic' https:")).toBe('csp-header-invalid');
    expect(csp("default-src 'self'; object-src 'none'; script-src 'strict-dynamic' 'nonce-abc' https: 'unsafe-inline'")).toBe('csp-implemented-with-no-unsafe');
  });

  it('fails a missing, report-only or unparsable policy, and takes no bonus for duplicated report directives', () => {
    expect(test(without('content-security-policy'), 'content-security-policy')!.result).toBe('csp-not-implemented');
    expect(test({ ...without('content-security-policy'), 'content-security-policy-report-only': "default-src 'none'" }, 'content-security-policy')!.result).toBe('csp-not-implemented-but-reporting-enabled');
    expect(csp("default-src 'self'; default-src 'none'")).toBe('csp-header-invalid');
    expect(csp("default-src 'none'; report-uri /a; report-uri /b")).toBe('csp-implemented-but-duplicate-directives');
  });

  it('reads a meta policy, but not its frame-ancestors', () => {
    const body = `<head><meta http-equiv="Content-Security-Policy" content="default-src 'self'; frame-ancestors 'none'"></head>`;
    const headers = without('content-security-policy');
    expect(test(headers, 'content-security-policy', { body })!.result).toBe('csp-implemented-with-no-unsafe');
    const { 'x-frame-options': _, ...neither } = headers;
    expect(test(neither, 'x-frame-options', { body })!.result).toBe('x-frame-options-not-implemented');
    expect(test(STRICT, 'x-frame-options', { body })!.result).toBe('x-frame-options-implemented-via-csp');
  });

  it('combines several policies: a later one only narrows the first', () => {
    expect(parseCsp(["default-src 'self'; img-src 'self' data:", "img-src 'self'; font-src 'self'"])).toEqual(new Map([
      ['default-src', new Set(["'self'"])], ['img-src', new Set(["'self'"])], ['font-src', new Set(["'none'"])],
    ]));
  });
});

describe('the other tests', () => {
  it('cookies: Secure, HttpOnly for sessions and SameSite earn +5; a missing flag costs', () => {
    const cookies = (c: string[]) => test({ ...STRICT, 'set-cookie': c }, 'cookies')!;
    expect(cookies([])).toEqual({ result: 'cookies-not-found', modifier: 0 });
    expect(cookies(['kmx_session=1; Path=/; HttpOnly; Secure; SameSite=Lax'])).toEqual({ result: 'cookies-secure-with-httponly-sessions-and-samesite', modifier: 5 });
    expect(cookies(['a=1; Secure; HttpOnly'])).toEqual({ result: 'cookies-secure-with-httponly-sessions', modifier: 0 });
    expect(cookies(['a=1; HttpOnly; SameSite=Lax'])).toEqual({ result: 'cookies-without-secure-flag-but-protected-by-hsts', modifier: -5 });
    expect(cookies(['kmx_session=1; Secure; SameSite=Lax'])).toEqual({ result: 'cookies-session-without-httponly-flag', modifier: -30 });
    expect(cookies(['a=1; Secure; SameSite=Sometimes'])).toEqual({ result: 'cookies-samesite-flag-invalid', modifier: -20 });
    expect(test({ ...without('strict-transport-security'), 'set-cookie': ['login=1; HttpOnly'] }, 'cookies')).toEqual({ result: 'cookies-session-without-secure-flag', modifier: -40 });
  });

  it('CORS: only credentials for a reflected origin cost', () => {
    const cors = (headers: Record<string, string>) => observatoryGrade({ response: { url: URL_, status: 200, headers: STRICT }, cors: { origin: 'https://evil.example', headers } }).tests['cross-origin-resource-sharing']!.result;
    expect(cors({})).toBe('cross-origin-resource-sharing-not-implemented');
    expect(cors({ 'access-control-allow-origin': '*' })).toBe('cross-origin-resource-sharing-implemented-with-public-access');
    expect(cors({ 'access-control-allow-origin': 'https://evil.example', 'access-control-allow-credentials': 'true' })).toBe('cross-origin-resource-sharing-implemented-with-universal-access');
  });

  it('redirection: http must go to https on the same host first', () => {
    const redirection = (chain: string[]) => observatoryGrade({ response: { url: URL_, status: 200, headers: STRICT }, httpRedirects: chain.map((url) => ({ url })) }).tests.redirection!.result;
    expect(redirection(['http://a.example/', 'https://a.example/'])).toBe('redirection-to-https');
    expect(redirection(['http://a.example/'])).toBe('redirection-missing');
    expect(redirection(['http://a.example/', 'https://www.a.example/'])).toBe('redirection-off-host-from-http');
    expect(redirection(['http://a.example/', 'http://www.a.example/', 'https://www.a.example/'])).toBe('redirection-not-to-https-on-initial-redirection');
    expect(redirection(['http://a.example/', 'http://www.a.example/'])).toBe('redirection-not-to-https');
    expect(observatoryGrade({ response: { url: URL_, status: 200, headers: STRICT } }).tests.redirection!.result).toBe('redirection-not-needed-no-http');
  });

  it('HSTS: at least six months; referrer policy: the last valid value counts', () => {
    expect(test({ ...STRICT, 'strict-transport-security': 'max-age=15552000' }, 'strict-transport-security')!.result).toBe('hsts-implemented-max-age-at-least-six-months');
    expect(test({ ...STRICT, 'strict-transport-security': 'max-age=1, max-age=2' }, 'strict-transport-security')!.result).toBe('hsts-header-invalid');
    expect(test({ ...STRICT, 'strict-transport-security': 'includeSubDomains' }, 'strict-transport-security')!.result).toBe('hsts-header-invalid');
    expect(test({ ...STRICT, 'referrer-policy': 'no-referrer, unsafe-url' }, 'referrer-policy')!.result).toBe('referrer-policy-unsafe');
    expect(test(without('referrer-policy'), 'referrer-policy', { body: '<meta name="referrer" content="no-referrer">' })!.result).toBe('referrer-policy-private');
  });

  it('SRI: same-origin scripts need none, foreign ones over https without integrity cost 5, over http 50', () => {
    const sri = (body: string, headers = STRICT) => test(headers, 'subresource-integrity', { body })!;
    expect(sri('<p>no scripts</p>').result).toBe('sri-not-implemented-but-no-scripts-loaded');
    expect(sri('<script type="module" src="/_astro/page.js"></script><script>inline()</script>')).toEqual({ result: 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin', modifier: 0 });
    expect(sri('<script src="https://cdn.komax.example/a.js"></script>').result).toBe('sri-not-implemented-but-all-scripts-loaded-from-secure-origin');
    expect(sri('<script src="https://third.example/a.js"></script>')).toEqual({ result: 'sri-not-implemented-but-external-scripts-loaded-securely', modifier: -5 });
    expect(sri('<script src="https://third.example/a.js" integrity="sha384-x" crossorigin></script>')).toEqual({ result: 'sri-implemented-and-external-scripts-loaded-securely', modifier: 5 });
    expect(sri('<script src="http://third.example/a.js"></script>')).toEqual({ result: 'sri-not-implemented-and-external-scripts-not-loaded-securely', modifier: -50 });
    expect(sri('<script src="//third.example/a.js"></script>').result).toBe('sri-not-implemented-and-external-scripts-not-loaded-securely');
    expect(sri('<script src="http://x.example/a.js"></script>', { ...STRICT, 'content-type': 'application/json' }).result).toBe('sri-not-implemented-response-not-html');
  });

  it('X-Content-Type-Options, X-Frame-Options, CORP, COOP and COEP', () => {
    expect(test(without('x-content-type-options'), 'x-content-type-options')!.modifier).toBe(-5);
    const noFrameAncestors = { ...STRICT, 'content-security-policy': "default-src 'none'" };
    expect(test(noFrameAncestors, 'x-frame-options')!.result).toBe('x-frame-options-sameorigin-or-deny');
    expect(test({ ...noFrameAncestors, 'x-frame-options': 'ALLOWALL' }, 'x-frame-options')!.modifier).toBe(-20);
    expect(test({ ...STRICT, 'cross-origin-resource-policy': 'same-origin' }, 'cross-origin-resource-policy')!.modifier).toBe(10);
    expect(test({ ...STRICT, 'cross-origin-resource-policy': 'cross-origin' }, 'cross-origin-resource-policy')!.modifier).toBe(0);
    expect(test({ ...STRICT, 'cross-origin-resource-policy': 'nope' }, 'cross-origin-resource-policy')!.modifier).toBe(-5);
    expect(test({ ...STRICT, 'cross-origin-opener-policy': 'same-origin; report-to="coop"' }, 'cross-origin-opener-policy')!.modifier).toBe(10);
    expect(test({ ...STRICT, 'cross-origin-opener-policy': '"same-origin"' }, 'cross-origin-opener-policy')!.modifier).toBe(-5);
    expect(test({ ...STRICT, 'cross-origin-opener-policy': ['same-origin', 'same-origin'] }, 'cross-origin-opener-policy')!.modifier).toBe(-5);
    expect(test(STRICT, 'cross-origin-embedder-policy')).toEqual({ result: 'coep-not-implemented', modifier: 0 });
    expect(test({ ...STRICT, 'cross-origin-embedder-policy': 'require-corp' }, 'cross-origin-embedder-policy')!.modifier).toBe(10);
  });
});

describe('elementsOf', () => {
  it('reads attributes in any quoting and case, entities decoded', () => {
    expect(elementsOf(`<META HTTP-EQUIV='Content-Security-Policy' content="a &amp; b"><script defer src=/x.js></script>`, 'meta')).toEqual([{ 'http-equiv': 'Content-Security-Policy', content: 'a & b' }]);
    expect(elementsOf('<script defer src=/x.js></script><scripts>', 'script')).toEqual([{ defer: '', src: '/x.js' }]);
  });
});
