import { join } from 'node:path';
import * as v from 'valibot';
import type { PrerenderResult } from '../prerender/run.ts';
import { getLogger } from '../../lib/log/index.ts';
import { readPointer } from '../release/release.ts';
import { revalidationFailureAnswer } from './revalidate-failure.ts';
import { JSON_TYPE } from '../../lib/http/body.ts';
import { apiRoute, endpoint, rateLimited, type EndpointLimits } from '../../lib/http/endpoint.ts';
import type { Guard } from '../../lib/http/input.ts';
import { json } from '../../lib/http/json.ts';
import { clientKey, rateLimiter } from '../../lib/http/rate-limit.ts';
import { givenSecret, requireSecret, secretMatches } from '../../lib/http/secret-guard.ts';
import { nodeRoute, type NodeContext } from '../../lib/http/node-route.ts';
import { SECRET_HEADER } from './secret.ts';

const log = getLogger('revalidate');

export const REVALIDATE_PATH = '/api/revalidate';

/**
 * POST /api/revalidate's declared limits: JSON of at most 64 KiB (or no body); a content hub's
 * webhook fires once per publish, so 60 requests per client and minute with the right secret
 * (applied by the guard, which knows whether the secret matched: see WRONG_SECRET_LIMIT).
 */
export const REVALIDATE_LIMITS: EndpointLimits = { body: { maxBytes: 64 * 1024, types: [JSON_TYPE] }, rateLimit: { limit: 60, windowMs: 60_000, appliedBy: 'handler' } };

/**
 * Requests with a missing or wrong secret count against a budget of their own per client, 10 a
 * minute (it slows down guessing the secret): they cannot use up the budget of the right secret,
 * so a client guessing from the content hub's address (a shared egress) does not block its webhooks.
 */
export const WRONG_SECRET_LIMIT = { limit: 10, windowMs: 60_000 } as const;

export const RevalidateBody = v.strictObject({
  ids: v.optional(v.pipe(v.array(v.pipe(v.string('ids must be strings'), v.nonEmpty('ids must not contain empty strings'), v.maxLength(64)), 'ids must be a list of page ids'), v.maxLength(1000, 'At most 1000 ids'))),
  slugs: v.optional(v.pipe(v.array(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]*$/, 'slugs must be lowercase-kebab'), v.maxLength(120)), 'slugs must be a list of slugs'), v.maxLength(1000, 'At most 1000 slugs'))),
  all: v.optional(v.boolean('all must be true or false')),
  /** The changed records, as a headless CMS webhook names them: only what they affect is collected. */
  records: v.optional(v.pipe(v.array(v.object({
    model: v.pipe(v.string('records[].model must be a string'), v.nonEmpty('records[].model must not be empty'), v.maxLength(64)),
    id: v.pipe(v.string('records[].id must be a string'), v.nonEmpty('records[].id must not be empty'), v.maxLength(64)),
    stage: v.optional(v.pipe(v.string('records[].stage must be a string'), v.maxLength(32))),
  }), 'records must be a list of records'), v.maxLength(1000, 'At most 1000 records'))),
});
export type RevalidateRequest = v.InferOutput<typeof RevalidateBody>;

/**
 * The secret guard behind its rate limits: the right secret's budget, or the wrong one's (which
 * budget a request counts against tells nothing of the secret but whether it matched, as the 401
 * does; the comparison is constant time).
 */
function rateLimitedSecret(secret: () => string | undefined): Guard<true, NodeContext> {
  const right = rateLimiter({ limit: REVALIDATE_LIMITS.rateLimit!.limit, windowMs: REVALIDATE_LIMITS.rateLimit!.windowMs, name: 'revalidate' });
  const wrong = rateLimiter({ ...WRONG_SECRET_LIMIT, name: 'revalidate-wrong-secret' });
  const guard = requireSecret<NodeContext>(secret, SECRET_HEADER, {
    unconfigured: 'Revalidation is not configured: set REVALIDATE_SECRET',
    wrong: 'Missing or wrong revalidation secret',
  });
  return async (context) => {
    const authorized = secretMatches(givenSecret(context.request.headers, SECRET_HEADER), secret());
    const hit = await (authorized ? right : wrong).hit(clientKey(context));
    if (!hit.allowed) return rateLimited(hit.retryAfterSeconds);
    return guard(context);
  };
}

/**
 * POST /api/revalidate (shared secret in `x-revalidate-secret` or `Authorization: Bearer`) as a
 * route of the Node server: guard, body and refusals through `endpoint()`, the handler runs
 * `run` and answers its result, or the failure in our words (the details go to the log).
 */
export function revalidateRoute(opts: { secret: () => string | undefined; distDir: string; run: (force: RevalidateRequest) => Promise<PrerenderResult> }) {
  const post = endpoint<NodeContext, true, typeof RevalidateBody>(REVALIDATE_LIMITS, { auth: rateLimitedSecret(opts.secret), body: RevalidateBody, emptyBody: { value: {} } }, async ({ body }) => {
    try {
      const result = await opts.run(body);
      log.info(`${result.rendered} rendered, ${result.unchanged} unchanged, ${result.removed} removed in ${result.seconds.toFixed(2)} s`);
      return json(result);
    } catch (err) {
      const live = readPointer(join(opts.distDir, 'static'));
      const answer = revalidationFailureAnswer(err, live);
      log.error(`failed, the previous release ${live ?? '(none)'} stays live: ${(err as Error).message}`);
      const res = json(answer.body, answer.status);
      for (const [k, val] of Object.entries(answer.headers)) res.headers.set(k, val);
      return res;
    }
  });
  return nodeRoute(REVALIDATE_PATH, apiRoute({ POST: post }));
}
