import type { APIRoute } from 'astro';
import * as v from 'valibot';
import { readBoundedText } from '../../lib/http/body.ts';
import { json } from '../../lib/http/json.ts';
import { clientKey, rateLimiter, type RateLimiter } from '../../lib/http/rate-limit.ts';
import { getLogger } from '../../lib/log/index.ts';

/**
 * The CSP reporting endpoint (`report-uri` and `report-to` of every policy, src/server/http/headers.ts):
 * browsers post violations here, each is logged as a warning (`csp-report`), and the answer is
 * always 204 for a report we could read. URLs are logged without query and fragment. Two formats:
 * - `application/csp-report` (report-uri): `{ "csp-report": { "document-uri", "violated-directive", … } }`
 * - `application/reports+json` (Reporting API, report-to): `[{ "type": "csp-violation", "url", "body": { "documentURL", "effectiveDirective", … } }]`
 * Bounded (a body over {@link MAX_CSP_REPORT_BYTES} is refused with 413 before it is read
 * further), rate-limited per client (a page with a broken policy can send many), never echoed.
 */

export const MAX_CSP_REPORT_BYTES = 16 * 1024;
/** Reports a client may send a minute (a page load with a real violation sends a handful). */
export const CSP_REPORT_LIMIT = { limit: 60, windowMs: 60_000 };
/** Reports of one Reporting API post we log; the rest are counted. */
const MAX_REPORTS_PER_POST = 20;
/** Longest value of a report field we log (URLs, samples). */
const MAX_FIELD = 300;

export const cspReportLimiter: RateLimiter = rateLimiter({ ...CSP_REPORT_LIMIT, name: 'csp-report' });
const log = getLogger('csp-report');

const Field = v.optional(v.union([v.string(), v.number()]));
/** The fields of a violation we log, in the Reporting API's names; anything else is dropped. */
export interface CspViolation {
  documentURL?: string;
  blockedURL?: string;
  effectiveDirective?: string;
  disposition?: string;
  sourceFile?: string;
  lineNumber?: number;
  sample?: string;
}

const LegacyReport = v.object({
  'csp-report': v.object({
    'document-uri': Field,
    'blocked-uri': Field,
    'violated-directive': Field,
    'effective-directive': Field,
    disposition: Field,
    'source-file': Field,
    'line-number': Field,
    'script-sample': Field,
  }),
});

const ReportingApiReport = v.object({
  type: v.string(),
  url: Field,
  body: v.optional(v.object({
    documentURL: Field,
    blockedURL: Field,
    effectiveDirective: Field,
    disposition: Field,
    sourceFile: Field,
    lineNumber: Field,
    sample: Field,
  })),
});

const text = (x: string | number | undefined) => (x === undefined ? undefined : String(x).slice(0, MAX_FIELD));
/** A URL of a report without its query and fragment (they can carry tokens), bounded. */
const where = (x: string | number | undefined) => text(x === undefined ? undefined : String(x).replace(/[?#].*$/s, ''));
const num = (x: string | number | undefined) => (x === undefined || !Number.isFinite(Number(x)) ? undefined : Number(x));

const clean = (violation: CspViolation): CspViolation => Object.fromEntries(Object.entries(violation).filter(([, x]) => x !== undefined)) as CspViolation;

/** The violations of a report body, or null when it is not a CSP report of the given type. */
export function parseCspReport(contentType: string, body: unknown): CspViolation[] | null {
  if (/^application\/csp-report\b/i.test(contentType)) {
    const parsed = v.safeParse(LegacyReport, body);
    if (!parsed.success) return null;
    const r = parsed.output['csp-report'];
    return [clean({
      documentURL: where(r['document-uri']), blockedURL: where(r['blocked-uri']),
      effectiveDirective: text(r['effective-directive'] ?? r['violated-directive']), disposition: text(r.disposition),
      sourceFile: where(r['source-file']), lineNumber: num(r['line-number']), sample: text(r['script-sample']),
    })];
  }
  if (/^application\/reports\+json\b/i.test(contentType)) {
    const parsed = v.safeParse(v.array(ReportingApiReport), body);
    if (!parsed.success) return null;
    return parsed.output.filter((r) => r.type === 'csp-violation').map((r) => clean({
      documentURL: where(r.body?.documentURL ?? r.url), blockedURL: where(r.body?.blockedURL),
      effectiveDirective: text(r.body?.effectiveDirective), disposition: text(r.body?.disposition),
      sourceFile: where(r.body?.sourceFile), lineNumber: num(r.body?.lineNumber), sample: text(r.body?.sample),
    }));
  }
  return null;
}

const NO_CONTENT = () => new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });

/** POST /api/csp-report: 204; 415 another type, 413 too large, 400 not a report, 429 too many. */
export const postCspReport: APIRoute = async (context) => {
  const { request } = context;
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/(?:csp-report|reports\+json)\b/i.test(type)) {
    return json({ error: 'unsupported-media-type', message: 'Send a CSP report (Content-Type: application/csp-report or application/reports+json).' }, 415);
  }
  const limit = await cspReportLimiter.hit(clientKey(context));
  if (!limit.allowed) {
    const res = json({ error: 'too-many-requests', message: 'Too many reports: try again later.' }, 429);
    res.headers.set('Retry-After', String(limit.retryAfterSeconds));
    return res;
  }
  const raw = await readBoundedText(request, MAX_CSP_REPORT_BYTES);
  if (raw === null) return json({ error: 'payload-too-large', message: `The report is larger than ${MAX_CSP_REPORT_BYTES} bytes.` }, 413);
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return json({ error: 'malformed-json', message: 'The report is not valid JSON.' }, 400);
  }
  const violations = parseCspReport(type, body);
  if (violations === null) return json({ error: 'invalid-report', message: 'The body is not a CSP violation report.' }, 400);
  for (const violation of violations.slice(0, MAX_REPORTS_PER_POST)) log.warn({ violation }, `CSP violation: ${violation.effectiveDirective ?? 'unknown directive'} blocked ${violation.blockedURL ?? 'unknown'} on ${violation.documentURL ?? 'unknown page'}`);
  if (violations.length > MAX_REPORTS_PER_POST) log.warn(`CSP violations: ${violations.length - MAX_REPORTS_PER_POST} more in the same report`);
  return NO_CONTENT();
};

/** Any other method: 405 naming the one to use. */
export const cspReportPostOnly: APIRoute = () => {
  const res = json({ error: 'method-not-allowed', message: 'Use POST to send a CSP report.' }, 405);
  res.headers.set('Allow', 'POST');
  return res;
};
