/**
 * The same-origin draft proxy (spec §4 Draft mode, §7 "draft content goes via a same-origin draft
 * proxy path"): `POST /api/draft-proxy/graphql` forwards one of the app's own content operations to
 * the content hub in stage DRAFT, for a request carrying a valid editor cookie only. The content
 * hub is never reached from the browser, and no answer holds a protected page (src/lib/content/
 * draft-proxy.ts). Its own feature folder, apart from draft-preview: it depends on the editor
 * feature's session rule, and the draft-preview feature is placed by the layouts the editor's views use.
 */
import type { APIContext } from 'astro';
import * as v from 'valibot';
import { ContentError } from '../../lib/content/index.ts';
import { allowedOperation, draftPassthrough } from '../../lib/content/draft-proxy.ts';
import { JSON_TYPE, readJsonBody } from '../../lib/http/body.ts';
import { endpoint, type EndpointLimits } from '../../lib/http/endpoint.ts';
import { json } from '../../lib/http/json.ts';
import { getLogger } from '../../lib/log/index.ts';
import { isEditorRequest } from '../editor/session.server.ts';
import { apiContext } from '../platform/context.ts';

const log = getLogger('draft-proxy');

/** Largest request body: an operation document with its variables (the largest document is ~1.5 KB). */
export const DRAFT_PROXY_MAX_BODY = 32 * 1024;
const MAX_LOCALES = 8;

const Locale = v.pipe(v.string(), v.regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})?$/, 'locales must be locale codes such as "de-CH" or "en"'));

const isPlainObject = (x: unknown): boolean => !!x && typeof x === 'object' && !Array.isArray(x);

/** The request body: a GraphQL request as clients send it, plus the ordered content locales. */
export const DraftProxyBody = v.strictObject({
  query: v.pipe(v.string('query must be a string'), v.nonEmpty('query is required'), v.maxLength(16_384, 'query is too long')),
  operationName: v.optional(v.nullable(v.pipe(v.string('operationName must be a string'), v.maxLength(100, 'operationName is too long')))),
  variables: v.optional(v.nullable(v.pipe(v.unknown(), v.check(isPlainObject, 'variables must be an object'), v.transform((x) => x as Record<string, unknown>))), {}),
  locales: v.optional(v.pipe(v.array(Locale, 'locales must be an array of locale codes'), v.maxLength(MAX_LOCALES, `locales may name at most ${MAX_LOCALES} locales`)), []),
});

/** The ordered locale list the content hub gets: the given order, English always last (spec §7). */
export function localeChain(locales: readonly string[]): string[] {
  const chain = [...new Set(locales)].filter((l) => l !== 'en');
  return [...chain, 'en'];
}

/** The first problem of a body, as a clear message. */
function problemOf(issues: v.BaseIssue<unknown>[]): string {
  const issue = issues[0]!;
  const key = issue.path?.at(-1)?.key;
  if (issue.type === 'strict_object' && key === undefined) return 'The body must be a JSON object.';
  if (issue.type === 'strict_object' && issue.expected === 'never') return `Unknown field: ${String(key).slice(0, 50)}`;
  if (issue.type === 'strict_object') return `${String(key).slice(0, 50)} is required`;
  return issue.message;
}

/** POST /api/draft-proxy/graphql. Every answer is `no-store`; errors are `{ error, message }`. */
export async function postDraftProxy({ request, locals }: Pick<APIContext, 'request' | 'locals'>): Promise<Response> {
  const { services } = apiContext(locals);
  if (!(await isEditorRequest(request, services.editorPasswordHash, services.sharedState))) return json({ error: 'unauthorized', message: 'The draft proxy is for signed-in editors only.' }, 401);
  const body = await readJsonBody(request, DRAFT_PROXY_MAX_BODY);
  if (body.kind === 'unsupported') return json({ error: 'unsupported-media-type', message: 'Send JSON (Content-Type: application/json).' }, 415);
  if (body.kind === 'too-large') return json({ error: 'too-large', message: `Request body too large (at most ${DRAFT_PROXY_MAX_BODY} bytes).` }, 413);
  if (body.kind === 'malformed') return json({ error: 'bad-request', message: 'The body is not valid JSON.' }, 400);
  if (!isPlainObject(body.value)) return json({ error: 'bad-request', message: 'The body must be a JSON object.' }, 400);
  const parsed = v.safeParse(DraftProxyBody, body.value);
  if (!parsed.success) return json({ error: 'bad-request', message: problemOf(parsed.issues) }, 400);
  const { query, operationName, variables, locales } = parsed.output;
  const allowed = allowedOperation(query, operationName);
  if (!allowed.ok) return json({ error: 'bad-request', message: allowed.reason }, 400);
  try {
    const data = await draftPassthrough(services.content, localeChain(locales), allowed.name, variables ?? {});
    return json({ data });
  } catch (err) {
    if (!(err instanceof ContentError)) {
      log.error({ err }, `draft proxy ${allowed.name} failed`);
      return json({ error: 'bad-gateway', message: 'The draft proxy failed.' }, 502);
    }
    if (err.failure === 'timeout') return json({ error: 'upstream-timeout', message: 'The content hub did not answer in time.' }, 504);
    if (err.unavailable) return json({ error: 'unavailable', message: 'The content hub is not available.' }, 503);
    // The hub's validation message for the caller's own variables (GraphQL errors, never a stack or an address).
    if (err.graphQLErrors?.length) return json({ error: 'bad-request', message: err.message }, 400);
    log.error({ err }, `draft proxy ${allowed.name} failed`);
    return json({ error: 'bad-gateway', message: 'The content hub gave an unexpected answer.' }, 502);
  }
}

/** An editor's reads of draft content: JSON of at most 32 KiB, no rate limit (nothing is written; the editor cookie is required). */
export const DRAFT_PROXY_LIMITS: EndpointLimits = { body: { maxBytes: DRAFT_PROXY_MAX_BODY, types: [JSON_TYPE] } };

/** POST /api/draft-proxy/graphql behind its limits. */
export const draftProxyRoute = endpoint(DRAFT_PROXY_LIMITS, (context: APIContext) => postDraftProxy(context));
