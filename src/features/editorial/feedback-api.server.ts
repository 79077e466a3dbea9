import type { APIRoute } from 'astro';
import * as v from 'valibot';
import { submitStoryFeedback } from '../../lib/content/index.ts';
import { FIELDS_MESSAGE, json } from '../../lib/http/json.ts';
import { JSON_TYPE, readJsonBody } from '../../lib/http/body.ts';
import { endpoint, type EndpointLimits } from '../../lib/http/endpoint.ts';
import { fixedT, uiLanguage } from '../../i18n/index.ts';
import { apiContext } from '../platform/context.ts';
import { apiContentContext, localeOf, LocaleParam } from '../platform/api.server.ts';
import { FEEDBACK_FIELDS, INVALID_KEY, validateFeedback, type FeedbackField } from './feedback-schema.ts';
import { getLogger } from '../../lib/log/index.ts';

const MAX_BODY = 16 * 1024;

/** JSON of at most 16 KiB; a person sends one feedback per story, a bot a burst: 10 per client and 10 minutes. */
export const FEEDBACK_LIMITS: EndpointLimits = {
  body: { maxBytes: MAX_BODY, types: [JSON_TYPE] },
  rateLimit: { limit: 10, windowMs: 10 * 60_000 },
  answerFields: { ok: false },
};
const Envelope = v.object({
  lang: LocaleParam,
  storySlug: v.pipe(v.string('storySlug is required'), v.regex(/^[a-z0-9][a-z0-9-]{0,150}$/, 'storySlug is not a story slug')),
});

/**
 * POST /api/story-feedback, JSON { lang, storySlug, firstName, lastName, company, country, message }.
 * 200 { ok: true }; 400 { ok: false, fields: { field: message } } with messages in `lang`;
 * 404 for an unknown story; 502 when the content hub cannot take it.
 */
export const storyFeedbackHandler: APIRoute = async ({ request, locals }) => {
  const api = apiContext(locals);
  const read = await readJsonBody(request, MAX_BODY);
  if (read.kind === 'unsupported') return json({ ok: false, error: 'unsupported-media-type', message: 'Send JSON (Content-Type: application/json).' }, 415);
  if (read.kind === 'too-large') return json({ ok: false, error: 'too-large', message: 'Request body too large.' }, 413);
  if (read.kind === 'malformed') return json({ ok: false, error: 'bad-request', message: 'The body is not valid JSON.' }, 400);
  const body = read.value;
  const envelope = v.safeParse(Envelope, body);
  if (!envelope.success) return json({ ok: false, error: 'bad-request', message: envelope.issues[0].message }, 400);
  const locale = localeOf(envelope.output.lang);
  const t = fixedT(uiLanguage(locale.language));
  try {
    const countries = api.system.countries.filter((c) => !c.hidden).map((c) => c.countryCode);
    const checked = validateFeedback(body, countries);
    if (!checked.ok) {
      const fields = Object.fromEntries(Object.entries(checked.errors).map(([f, issue]) => [f, t(issue.key, issue.params ?? {})]));
      return json({ ok: false, error: 'invalid-fields', message: FIELDS_MESSAGE, fields }, 400);
    }
    const result = await submitStoryFeedback(apiContentContext(api, locale), { storySlug: envelope.output.storySlug, ...checked.value });
    if (result.ok) return json({ ok: true });
    if (result.fields.storySlug) return json({ ok: false, error: 'not-found', message: 'No story with this slug.' }, 404);
    // The content hub refused a field our own check let through: say which, in the visitor's language.
    const fields = Object.fromEntries(Object.keys(result.fields).filter((f): f is FeedbackField => (FEEDBACK_FIELDS as readonly string[]).includes(f)).map((f) => [f, t(INVALID_KEY)]));
    return json({ ok: false, error: 'invalid-fields', message: FIELDS_MESSAGE, fields }, 400);
  } catch (err) {
    getLogger('story-feedback').error((err as Error).message);
    return json({ ok: false, error: 'bad-gateway', message: t('feedback.failure') }, 502);
  }
};

/** POST /api/story-feedback behind its limits (body, per-client rate limit). */
export const postStoryFeedback = endpoint(FEEDBACK_LIMITS, storyFeedbackHandler);
