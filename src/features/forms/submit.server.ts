import { readBoundedText, readJsonBody } from '../../lib/http/body.ts';
import { rateLimiter, type RateLimiter } from '../../lib/http/rate-limit.ts';
import { submitForm, type ContentContext, type FormSubmissionInput, type FormSubmitResult } from '../../lib/content/index.ts';
import { getLogger } from '../../lib/log/index.ts';
import type { MessageKey } from '../../i18n/index.ts';
import { fieldsOf, honeypotFilled, INVALID_KEY, type FormKind } from './definitions.ts';
import { toSubmission, validateForm, type FormErrors } from './schema.ts';

/**
 * What happens to a form post, whichever way it came (POST /api/forms/{kind} with JSON or a
 * urlencoded body, or the form page's plain HTML post): rate limit, honeypot, the form's schema,
 * then the content hub. The callers only turn the outcome into their answer (JSON or HTML).
 */

/** Largest accepted body: the longest form (service request) with every field at its limit fits. */
export const MAX_FORM_BODY = 32 * 1024;

/** Posts per client and window: a person sends a handful, a bot a burst. */
export const FORM_RATE_LIMIT = { limit: 10, windowMs: 10 * 60_000 };

/** One limiter for every form of this process (API and HTML posts count together). */
export const formLimiter: RateLimiter = rateLimiter(FORM_RATE_LIMIT);

export type FormBody =
  | { kind: 'ok'; value: Record<string, unknown> }
  | { kind: 'unsupported' }
  | { kind: 'too-large' }
  | { kind: 'malformed' };

/** Reads a form post: a JSON object or a urlencoded form (`application/x-www-form-urlencoded`), at most `maxBytes`. */
export async function readFormBody(request: Request, maxBytes = MAX_FORM_BODY): Promise<FormBody> {
  const type = request.headers.get('content-type') ?? '';
  if (/^application\/json\b/i.test(type)) {
    const body = await readJsonBody(request, maxBytes);
    if (body.kind !== 'ok') return body;
    return body.value && typeof body.value === 'object' && !Array.isArray(body.value) ? { kind: 'ok', value: body.value as Record<string, unknown> } : { kind: 'malformed' };
  }
  if (/^application\/x-www-form-urlencoded\b/i.test(type)) {
    const text = await readBoundedText(request, maxBytes);
    if (text === null) return { kind: 'too-large' };
    return { kind: 'ok', value: Object.fromEntries(new URLSearchParams(text)) };
  }
  return { kind: 'unsupported' };
}

export type SubmissionOutcome =
  | { kind: 'sent'; stored: boolean; download: string | null }
  | { kind: 'invalid'; errors: FormErrors }
  | { kind: 'rate-limited'; retryAfterSeconds: number }
  | { kind: 'failed'; status: 502 | 503 };

export interface SubmissionDeps {
  limiter?: RateLimiter;
  submit?: (ctx: ContentContext, input: FormSubmissionInput) => Promise<FormSubmitResult>;
}

/** Where a valid whitepaper request gets its file: the existing file route, as a download. */
export const downloadHref = (slug: string, language: string): string => `/file/${encodeURIComponent(slug)}?l=${encodeURIComponent(language)}&dl=true`;

/**
 * Runs one form post. `client` is the rate-limit key (the client address); `countries` the
 * offered country codes; `locale` the page's locale code (stored with the submission).
 */
export async function processSubmission(
  args: { kind: FormKind; input: Record<string, unknown>; client: string; countries: readonly string[]; locale: string; content: ContentContext },
  deps: SubmissionDeps = {},
): Promise<SubmissionOutcome> {
  const hit = (deps.limiter ?? formLimiter).hit(args.client);
  if (!hit.allowed) return { kind: 'rate-limited', retryAfterSeconds: hit.retryAfterSeconds };
  // A bot's post: answered like a success (nothing tells it what gave it away), never stored.
  if (honeypotFilled(args.input)) return { kind: 'sent', stored: false, download: null };
  const checked = validateForm(args.kind, args.input, args.countries);
  if (!checked.ok) return { kind: 'invalid', errors: checked.errors };
  const download = args.kind === 'whitepaper' ? downloadHref(String(checked.value.file), args.locale.slice(0, 2).toLowerCase()) : null;
  try {
    const result = await (deps.submit ?? submitForm)(args.content, { kind: args.kind, locale: args.locale, fields: toSubmission(checked.value) });
    if (result.ok) return { kind: 'sent', stored: true, download };
    // The content hub refused a field our own check let through: mark it with the default message.
    const names = new Set(fieldsOf(args.kind).map((f) => f.name));
    const errors: FormErrors = {};
    for (const field of Object.keys(result.fields)) if (names.has(field)) errors[field] = INVALID_KEY as MessageKey;
    if (Object.keys(errors).length) return { kind: 'invalid', errors };
    getLogger('forms').error(`${args.kind}: the content hub refused the submission: ${Object.values(result.fields).join(' ')}`);
    return { kind: 'failed', status: 502 };
  } catch (err) {
    getLogger('forms').error(`${args.kind}: ${(err as Error).message}`);
    // A plain field (not instanceof): the error may come from the server's other copy of src/lib.
    return { kind: 'failed', status: (err as { unavailable?: boolean }).unavailable ? 503 : 502 };
  }
}
