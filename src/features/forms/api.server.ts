import type { APIContext, APIRoute } from 'astro';
import * as v from 'valibot';
import { FIELDS_MESSAGE, json } from '../../lib/http/json.ts';
import { IDEMPOTENCY_MESSAGES } from '../../lib/idempotency/http.ts';
import { readIdempotencyKey } from '../../lib/idempotency/key.ts';
import { clientKey } from '../../lib/http/rate-limit.ts';
import { FORM_TYPE, JSON_TYPE } from '../../lib/http/body.ts';
import { endpoint, type EndpointLimits } from '../../lib/http/endpoint.ts';
import { fixedT, uiLanguage } from '../../i18n/index.ts';
import { apiContext } from '../platform/context.ts';
import { apiContentContext, localeOf, LocaleParam } from '../platform/api.server.ts';
import { isFormKind } from './definitions.ts';
import { FORM_RATE_LIMIT, MAX_FORM_BODY, processSubmission, readFormBody, type SubmissionDeps } from './submit.server.ts';

const Lang = v.optional(LocaleParam, 'en');

/**
 * POST /api/forms/{kind} (openSource, serviceRequest, whitepaper, contact): a JSON object or a
 * urlencoded form with the form's fields and `lang` (the page's locale code, default en).
 * A post that would be stored needs an `Idempotency-Key` (the enhanced form makes one when it
 * opens): it is stored once per key, a repeat within 24 h gets the first answer.
 * 200 { ok: true, message, download? } (download: the whitepaper's file link); 400 { ok: false,
 * fields: { field: message } } in `lang`, or { ok: false, error, message } without a usable key; 404
 * unknown form; 409 while the same key is being stored; 413 body over 32 KiB; 415 another content
 * type; 422 the key was used for another submission; 429 { ok: false, error, message } with Retry-After;
 * 503 { ok: false, error, message } (the spec's failure text) when the content hub is down (nothing
 * stored); 504/502 with the text that it is not known whether it was stored (the hub did not
 * answer in time or failed after getting it: sending again with the same key is safe).
 */
export function createFormsHandler(deps: SubmissionDeps = {}): APIRoute {
  return async (context: APIContext) => {
    const kind = context.params.kind ?? '';
    if (!isFormKind(kind)) return json({ ok: false, error: 'not-found', message: `No form "${kind.slice(0, 40)}".` }, 404);
    const body = await readFormBody(context.request);
    if (body.kind === 'unsupported') return json({ ok: false, error: 'unsupported-media-type', message: 'Send JSON (application/json) or a form (application/x-www-form-urlencoded).' }, 415);
    if (body.kind === 'too-large') return json({ ok: false, error: 'too-large', message: 'Request body too large.' }, 413);
    if (body.kind === 'malformed') return json({ ok: false, error: 'bad-request', message: 'The body is not a JSON object.' }, 400);
    const lang = v.safeParse(Lang, body.value.lang);
    if (!lang.success) return json({ ok: false, error: 'bad-request', message: lang.issues[0].message }, 400);
    const api = apiContext(context.locals);
    const locale = localeOf(lang.output);
    const t = fixedT(uiLanguage(locale.language));
    const outcome = await processSubmission({
      kind, input: body.value, client: clientKey(context), locale: locale.code,
      countries: api.system.countries.filter((c) => !c.hidden).map((c) => c.countryCode),
      content: apiContentContext(api, locale),
      key: readIdempotencyKey(context.request.headers),
    }, deps);
    switch (outcome.kind) {
      case 'sent':
        return json({ ok: true, message: t('forms.success'), ...(outcome.download ? { download: outcome.download } : {}) });
      case 'invalid':
        return json({ ok: false, error: 'invalid-fields', message: FIELDS_MESSAGE, fields: Object.fromEntries(Object.entries(outcome.errors).map(([f, key]) => [f, t(key)])) }, 400);
      case 'rate-limited': {
        const res = json({ ok: false, error: 'rate-limited', message: t('forms.tooMany', { seconds: outcome.retryAfterSeconds }) }, 429);
        res.headers.set('Retry-After', String(outcome.retryAfterSeconds));
        return res;
      }
      case 'key-refused':
        return json({ ok: false, error: 'bad-request', message: outcome.message }, 400);
      case 'key-in-progress': {
        // The first post with this key is still on its way to the content hub: not known yet.
        const res = json({ ok: false, error: 'conflict', message: t('forms.unknownOutcome') }, 409);
        res.headers.set('Retry-After', '1');
        return res;
      }
      case 'key-mismatch':
        return json({ ok: false, error: 'unprocessable', message: IDEMPOTENCY_MESSAGES.mismatch }, 422);
      case 'failed':
        return json({ ok: false, error: outcome.status === 503 ? 'unavailable' : outcome.status === 504 ? 'upstream-timeout' : 'bad-gateway', message: t(outcome.unknown ? 'forms.unknownOutcome' : 'forms.failure') }, outcome.status);
    }
  };
}

/** JSON or a urlencoded form of at most 32 KiB; the rate limit is the forms' own (shared with the HTML form posts, answered in `lang`). */
export const FORM_LIMITS: EndpointLimits = {
  body: { maxBytes: MAX_FORM_BODY, types: [JSON_TYPE, FORM_TYPE] },
  rateLimit: { ...FORM_RATE_LIMIT, appliedBy: 'handler' },
  answerFields: { ok: false },
};

export const postForm = endpoint(FORM_LIMITS, createFormsHandler());
