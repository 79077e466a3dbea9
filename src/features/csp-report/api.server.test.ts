import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { APIContext } from 'astro';
import { captureLogs, type CapturedLogs } from '../../../tests/support/log.ts';
import { CSP_REPORT_LIMIT, cspReportLimiter, cspReportPostOnly, MAX_CSP_REPORT_BYTES, parseCspReport, postCspReport } from './api.server.ts';

const LEGACY = {
  'csp-report': {
    'document-uri': 'https://www.komax.example/en/about-us?token=secret#x',
    'blocked-uri': 'https://evil.example/x.js',
    'violated-directive': 'script-src-elem',
    'effective-directive': 'script-src-elem',
    'original-policy': "default-src 'self'",
    disposition: 'enforce',
    'source-file': 'https://www.komax.example/_astro/page.js',
    'line-number': 12,
    'script-sample': '',
    'status-code': 200,
  },
};
const REPORTING_API = [{
  type: 'csp-violation', age: 3, url: 'https://www.komax.example/en', user_agent: 'x',
  body: { documentURL: 'https://www.komax.example/en', blockedURL: 'inline', effectiveDirective: 'style-src-attr', disposition: 'enforce', sample: 'color:red', lineNumber: 3, statusCode: 200, originalPolicy: "default-src 'self'" },
}, { type: 'deprecation', url: 'https://www.komax.example/en', body: { id: 'x' } }];

let client = 0;
function post(body: string, contentType: string, opts: { client?: string; length?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (opts.length) headers['content-length'] = opts.length;
  const request = new Request('http://localhost/api/csp-report', { method: 'POST', headers, body });
  return postCspReport({ request, clientAddress: opts.client ?? `10.0.0.${++client}`, locals: {} } as unknown as APIContext);
}

let logs: CapturedLogs;
beforeEach(() => { logs = captureLogs('warn'); });
afterEach(() => logs.restore());

describe('POST /api/csp-report', () => {
  it('answers 204 to a report-uri report and logs the violation, URLs without query or fragment', async () => {
    const res = await post(JSON.stringify(LEGACY), 'application/csp-report');
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(logs.lines).toHaveLength(1);
    expect(logs.lines[0]).toMatchObject({
      component: 'csp-report',
      msg: 'CSP violation: script-src-elem blocked https://evil.example/x.js on https://www.komax.example/en/about-us',
      violation: { documentURL: 'https://www.komax.example/en/about-us', blockedURL: 'https://evil.example/x.js', effectiveDirective: 'script-src-elem', disposition: 'enforce', sourceFile: 'https://www.komax.example/_astro/page.js', lineNumber: 12, sample: '' },
    });
    expect(logs.text()).not.toContain('secret');
  });

  it('answers 204 to a Reporting API batch and logs its CSP violations only', async () => {
    const res = await post(JSON.stringify(REPORTING_API), 'application/reports+json');
    expect(res.status).toBe(204);
    expect(logs.lines.map((l) => l.msg)).toEqual(['CSP violation: style-src-attr blocked inline on https://www.komax.example/en']);
  });

  it('refuses another content type (415), an oversize body (413), malformed JSON and non-reports (400)', async () => {
    const refused = await post(JSON.stringify(LEGACY), 'application/json');
    expect([refused.status, await refused.json()]).toEqual([415, { error: 'unsupported-media-type', message: 'Send a CSP report (Content-Type: application/csp-report or application/reports+json).' }]);
    const big = await post(JSON.stringify({ 'csp-report': { 'script-sample': 'x'.repeat(MAX_CSP_REPORT_BYTES) } }), 'application/csp-report');
    expect(big.status).toBe(413);
    const declared = await post('{}', 'application/csp-report', { length: String(50 * 1024 * 1024) });
    expect(declared.status).toBe(413);
    expect((await post('{"csp-report":', 'application/csp-report')).status).toBe(400);
    const wrong = await post(JSON.stringify({ 'csp-report': 'x' }), 'application/csp-report');
    expect([wrong.status, (await wrong.json() as { message: string }).message]).toEqual([400, 'The body is not a CSP violation report.']);
    expect((await post(JSON.stringify({ not: 'a list' }), 'application/reports+json')).status).toBe(400);
    expect(logs.lines).toEqual([]);
  });

  it('bounds what it logs: long values cut, at most 20 violations a post', async () => {
    const many = Array.from({ length: 25 }, () => ({ type: 'csp-violation', body: { documentURL: `https://a.example/${'p'.repeat(500)}`, effectiveDirective: 'img-src' } }));
    expect((await post(JSON.stringify(many), 'application/reports+json')).status).toBe(204);
    expect(logs.lines).toHaveLength(21);
    expect(((logs.lines[0]!.violation as { documentURL: string }).documentURL).length).toBe(300);
    expect(logs.lines[20]!.msg).toBe('CSP violations: 5 more in the same report');
  });

  it('rate-limits each client (429 with Retry-After), others still pass', async () => {
    cspReportLimiter.reset('10.9.9.9');
    for (let i = 0; i < CSP_REPORT_LIMIT.limit; i++) expect((await post(JSON.stringify(LEGACY), 'application/csp-report', { client: '10.9.9.9' })).status).toBe(204);
    const limited = await post(JSON.stringify(LEGACY), 'application/csp-report', { client: '10.9.9.9' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await post(JSON.stringify(LEGACY), 'application/csp-report', { client: '10.9.9.8' })).status).toBe(204);
  });

  it('answers any other method 405 with Allow: POST', async () => {
    const res = await cspReportPostOnly({} as APIContext);
    expect([res.status, res.headers.get('allow')]).toEqual([405, 'POST']);
  });
});

describe('parseCspReport', () => {
  it('keeps only the fields it logs, numbers as numbers', () => {
    expect(parseCspReport('application/csp-report; charset=utf-8', { 'csp-report': { 'violated-directive': 'img-src', 'line-number': '7', extra: { deep: 1 } } })).toEqual([{ effectiveDirective: 'img-src', lineNumber: 7 }]);
    expect(parseCspReport('text/plain', {})).toBeNull();
  });
});
