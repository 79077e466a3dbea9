/**
 * An API's input checked at the boundary, and the one wording of its refusal (issue 30): every
 * endpoint that reads a JSON body, a route parameter or a query through a valibot schema answers a
 * refusal as `{ error: 'bad-request', message, detail?: { field } }`, with the same text for the
 * same mistake.
 * @example
 *   const body = await readInput(request, ProfileBody, 8 * 1024);
 *   if (!body.ok) return body.response;
 */
import * as v from 'valibot';
import { readJsonBody } from './body.ts';
import { json } from './json.ts';

/** A checked input, or the answer that refuses it. */
export type Checked<T> = { ok: true; value: T } | { ok: false; response: Response };

/** The JSON body of an endpoint's error answer (`code` style: a stable code for clients, a message for people). */
export interface ApiError {
  error: string;
  message: string;
  detail?: Record<string, unknown>;
}

/** A 400 with the field it is about (a client highlights it). */
export function badRequest(message: string, field?: string): Response {
  return json({ error: 'bad-request', message, ...(field ? { detail: { field } } : {}) } satisfies ApiError, 400);
}

/**
 * The first of valibot's issues as one sentence and the field it names (cut to 50 characters: a
 * hostile key is not echoed whole). A strict object's unknown key and missing key get our own
 * wording, because valibot's ("Invalid type: Expected never …") tells a client nothing.
 * @example issueMessage(v.safeParse(v.strictObject({ a: v.string() }), {}).issues!) // { message: 'a is required', field: 'a' }
 */
export function issueMessage(issues: readonly v.BaseIssue<unknown>[]): { message: string; field?: string } {
  const issue = issues[0];
  if (!issue) return { message: 'The input is not valid.' };
  // The field a client highlights is the top-level one; a strict object's wording names the key itself.
  const top = issue.path?.[0]?.key;
  const field = typeof top === 'string' ? top.slice(0, 50) : undefined;
  if (issue.type === 'strict_object') {
    const key = issue.path?.at(-1)?.key;
    if (key === undefined) return { message: 'The body must be a JSON object.' };
    const name = String(key).slice(0, 50);
    return { message: issue.expected === 'never' ? `Unknown field: ${name}` : `${name} is required`, field };
  }
  return { message: issue.message, field };
}

/** `value` through `schema`, or the 400 naming the first issue. */
export function checkInput<S extends v.GenericSchema>(schema: S, value: unknown): Checked<v.InferOutput<S>> {
  const parsed = v.safeParse(schema, value);
  if (parsed.success) return { ok: true, value: parsed.output };
  const { message, field } = issueMessage(parsed.issues);
  return { ok: false, response: badRequest(message, field) };
}

/** A JSON object body through `schema`: 415 without JSON, 413 over `maxBytes`, 400 when malformed or refused. */
export async function readInput<S extends v.GenericSchema>(request: Request, schema: S, maxBytes: number, emptyAs?: { value: unknown }): Promise<Checked<v.InferOutput<S>>> {
  const body = await readJsonBody(request, maxBytes, emptyAs);
  if (body.kind === 'unsupported') return { ok: false, response: json({ error: 'unsupported-media-type', message: 'Send JSON (Content-Type: application/json).' } satisfies ApiError, 415) };
  if (body.kind === 'too-large') return { ok: false, response: json({ error: 'too-large', message: 'Request body too large.' } satisfies ApiError, 413) };
  if (body.kind === 'malformed') return { ok: false, response: badRequest('The body is not valid JSON.') };
  if (Array.isArray(body.value)) return { ok: false, response: badRequest('The body must be a JSON object.') };
  return checkInput(schema, body.value);
}

/** Who may call an endpoint: the caller, or the answer that refuses them (401, 403, 503). */
export type Guard<U, C = APIContextLike> = (context: C) => Promise<U | Response>;

/** What a checked handler needs of Astro's context (tests build it by hand). */
export interface APIContextLike {
  request: Request;
  params: Record<string, string | undefined>;
  url: URL;
  locals: unknown;
}

/** The schemas of an endpoint's route parameters, by name. */
export type Schemas = Record<string, v.GenericSchema>;
type Outputs<P extends Schemas> = { [K in keyof P]: v.InferOutput<P[K]> };

/** The checks of an endpoint: who may call it, then its route parameters, query and JSON body. */
export interface InputRules<C, U, B extends v.GenericSchema | undefined, P extends Schemas, Q extends v.GenericSchema | undefined> {
  auth?: Guard<U, C>;
  params?: P;
  query?: Q;
  body?: B;
  /** What a request without a body reads as (a webhook may send none); without it, such a request is refused 415. */
  emptyBody?: { value: unknown };
  /** The body's limit when the handler runs without `endpoint()`'s wrapper (tests); the wrapper's own is the same or tighter. */
  maxBytes?: number;
}

/** What the handler receives: everything already checked. */
export interface CheckedInput<C, U, B, P extends Schemas, Q> {
  context: C;
  user: U;
  params: Outputs<P>;
  query: Q extends v.GenericSchema ? v.InferOutput<Q> : undefined;
  body: B extends v.GenericSchema ? v.InferOutput<B> : undefined;
}

/**
 * A handler behind its checks, in order: the guard (its refusal as is), each route parameter, the
 * query (non-empty parameters the schema names), then the JSON body (a 400 in the one shape above).
 * Goes inside `endpoint(limits, …)`, whose header and rate checks come first.
 * @example
 *   export const patchProfile = endpoint(LIMITS, checked({ auth: requireUser, body: ProfileBody }, ({ user, body }) => …));
 */
export function checked<C extends APIContextLike, U = undefined, B extends v.GenericSchema | undefined = undefined, P extends Schemas = Record<never, never>, Q extends v.GenericSchema | undefined = undefined>(
  rules: InputRules<C, U, B, P, Q>,
  handler: (input: CheckedInput<C, U, B, P, Q>) => Response | Promise<Response>,
): (context: C) => Promise<Response> {
  return async (context) => {
    let user = undefined as U;
    if (rules.auth) {
      const caller = await rules.auth(context);
      if (caller instanceof Response) return caller;
      user = caller;
    }
    const params = {} as Record<string, unknown>;
    for (const [name, schema] of Object.entries(rules.params ?? {})) {
      const parsed = v.safeParse(schema, context.params[name] ?? '');
      if (!parsed.success) return badRequest(issueMessage(parsed.issues).message, name);
      params[name] = parsed.output;
    }
    let query: unknown;
    if (rules.query) {
      const names = 'entries' in rules.query ? (rules.query as unknown as { entries: Record<string, unknown> }).entries : {};
      const given = Object.fromEntries([...context.url.searchParams].filter(([k, value]) => value !== '' && k in names));
      const q = checkInput(rules.query, given);
      if (!q.ok) return q.response;
      query = q.value;
    }
    let body: unknown;
    if (rules.body) {
      const b = await readInput(context.request, rules.body, rules.maxBytes ?? DEFAULT_MAX_BYTES, rules.emptyBody);
      if (!b.ok) return b.response;
      body = b.value;
    }
    return handler({ context, user, params: params as Outputs<P>, query, body } as CheckedInput<C, U, B, P, Q>);
  };
}

const DEFAULT_MAX_BYTES = 8 * 1024;
