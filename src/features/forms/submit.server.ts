import { readBoundedText, readJsonBody } from '../../lib/http/body.ts';
import { rateLimiter, type RateLimiter } from '../../lib/http/rate-limit.ts';
import { submitForm, type ContentContext, type FormSubmissionInput, type FormSubmitResult } from '../../lib/content/index.ts';
import { fingerprint, IDEMPOTENCY_MESSAGES } from '../../lib/idempotency/http.ts';
import type { KeyRead } from '../../lib/idempotency/key.ts';
import { memoryIdempotencyStore, once, processIdempotencyStore, type IdempotencyStore } from '../../lib/idempotency/store.ts';
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
export const formLimiter: RateLimiter = rateLimiter({ ...FORM_RATE_LIMIT, name: 'forms' });

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
  /** A post that would be stored came without a usable Idempotency-Key (400, the reason in English). */
  | { kind: 'key-refused'; message: string }
  /** The same key is being stored right now (409), or was used for another submission (422). */
  | { kind: 'key-in-progress' }
  | { kind: 'key-mismatch' }
  /**
   * Not stored, or not known: `unknown` when the content hub may have stored it (it did not
   * answer in time, or answered 5xx after getting it): 504/502; a hub that could not be reached
   * stored nothing: 503.
   */
  | { kind: 'failed'; status: 502 | 503 | 504; unknown: boolean };

export interface SubmissionDeps {
  limiter?: RateLimiter;
  submit?: (ctx: ContentContext, input: FormSubmissionInput, idempotencyKey?: string) => Promise<FormSubmitResult>;
  /** Where the first result of each key is kept (default: this process's store). */
  store?: IdempotencyStore<SubmissionOutcome>;
}

/** Where a valid whitepaper request gets its file: the existing file route, as a download. */
export const downloadHref = (slug: string, language: string): string => `/file/${encodeURIComponent(slug)}?l=${encodeURIComponent(language)}&dl=true`;

/** The first result of each form post's key, for 24 hours (see docs/operations.md "Idempotency"). */
export const submissionStore: IdempotencyStore<SubmissionOutcome> = processIdempotencyStore('submissions', memoryIdempotencyStore<SubmissionOutcome>());

/**
 * The idempotency key of a post: the `Idempotency-Key` the enhanced form sends (made when the
 * form opened in the browser), or, for the plain HTML post of a form without JavaScript (most
 * forms sit on prerendered pages, which cannot carry a key per visitor), `derive`: a key made
 * from the client and the content, so the same submission posted again within 24 hours (a
 * reload, a second click, a retry after a timeout) is stored once.
 */
export type SubmissionKey = KeyRead | { kind: 'derive' };

/** What a submission says, in a stable order: the content of its fingerprint and derived key. */
const canonical = (kind: string, locale: string, fields: Record<string, string>) =>
  JSON.stringify([kind, locale.toLowerCase(), Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);

/** Whether a hub failure leaves it open if the submission was stored (it may have got it). */
function failureOf(err: unknown): { status: 502 | 503 | 504; unknown: boolean } {
  const e = err as { failure?: string; status?: number; message?: string; unavailable?: boolean };
  // A plain field check (not instanceof): the error may come from the server's other copy of src/lib.
  if (e?.failure === 'timeout') return /could not connect/.test(e.message ?? '') ? { status: 503, unknown: false } : { status: 504, unknown: true };
  if (e?.failure === 'unreachable') return { status: 503, unknown: false };
  if (typeof e?.status === 'number' && e.status >= 500 && e.status !== 503) return { status: 502, unknown: true };
  return { status: e?.unavailable ? 503 : 502, unknown: false };
}

/**
 * Runs one form post. `client` is the rate-limit key (the client address); `countries` the
 * offered country codes; `locale` the page's locale code (stored with the submission); `key` the
 * post's idempotency key (see SubmissionKey): a post that would be stored is stored once per key,
 * and a repeat gets the first result.
 */
export async function processSubmission(
  args: { kind: FormKind; input: Record<string, unknown>; client: string; countries: readonly string[]; locale: string; content: ContentContext; key: SubmissionKey },
  deps: SubmissionDeps = {},
): Promise<SubmissionOutcome> {
  const hit = await (deps.limiter ?? formLimiter).hit(args.client);
  if (!hit.allowed) return { kind: 'rate-limited', retryAfterSeconds: hit.retryAfterSeconds };
  // A bot's post: answered like a success (nothing tells it what gave it away), never stored.
  if (honeypotFilled(args.input)) return { kind: 'sent', stored: false, download: null };
  const checked = validateForm(args.kind, args.input, args.countries);
  if (!checked.ok) return { kind: 'invalid', errors: checked.errors };
  if (args.key.kind === 'missing') return { kind: 'key-refused', message: IDEMPOTENCY_MESSAGES.missing };
  if (args.key.kind === 'malformed') return { kind: 'key-refused', message: args.key.message };
  const download = args.kind === 'whitepaper' ? downloadHref(String(checked.value.file), args.locale.slice(0, 2).toLowerCase()) : null;
  const fields = toSubmission(checked.value);
  const content = canonical(args.kind, args.locale, fields);
  const key = args.key.kind === 'ok' ? args.key.key : `form-${fingerprint(args.client, content).slice(0, 48)}`;
  const result = await once(deps.store ?? submissionStore, `${args.kind}\u0000${key}`, fingerprint(content), async () => {
    const outcome = await submitOnce(args, fields, key, deps);
    return { value: outcome, keep: outcome.kind === 'sent' };
  });
  if (result.kind === 'in-progress') return { kind: 'key-in-progress' };
  if (result.kind === 'mismatch') return { kind: 'key-mismatch' };
  const outcome = result.value;
  return outcome.kind === 'sent' ? { ...outcome, download } : outcome;
}

async function submitOnce(args: { kind: FormKind; locale: string; content: ContentContext }, fields: Record<string, string>, key: string, deps: SubmissionDeps): Promise<SubmissionOutcome> {
  try {
    const result = await (deps.submit ?? submitForm)(args.content, { kind: args.kind, locale: args.locale, fields }, key);
    if (result.ok) return { kind: 'sent', stored: true, download: null };
    if ('key' in result) return result.key === 'in-progress' ? { kind: 'key-in-progress' } : { kind: 'key-mismatch' };
    // The content hub refused a field our own check let through: mark it with the default message.
    const names = new Set(fieldsOf(args.kind).map((f) => f.name));
    const errors: FormErrors = {};
    for (const field of Object.keys(result.fields)) if (names.has(field)) errors[field] = INVALID_KEY as MessageKey;
    if (Object.keys(errors).length) return { kind: 'invalid', errors };
    getLogger('forms').error(`${args.kind}: the content hub refused the submission: ${Object.values(result.fields).join(' ')}`);
    return { kind: 'failed', status: 502, unknown: false };
  } catch (err) {
    const failure = failureOf(err);
    getLogger('forms').error(`${args.kind}: ${(err as Error).message}${failure.unknown ? ' (whether it was stored is not known; a retry with the same key stores it once)' : ''}`);
    return { kind: 'failed', ...failure };
  }
}
