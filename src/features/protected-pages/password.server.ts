/**
 * The password form of a protected page (spec §2.5 "password-protected trade-show form", §5 "Please
 * enter a password"): a plain HTML POST to the page's own URL, so it works without JavaScript
 * (Astro's `security.checkOrigin` refuses cross-site posts). The server checks the password
 * against the page's scrypt hash in constant time; right → the grant cookie and 303 to the page;
 * empty, wrong or too many attempts → the form again with the reason.
 */
import * as v from 'valibot';
import { verifyPassword } from '../../lib/crypto/password.ts';
import type { RateLimiter } from '../../lib/http/rate-limit.ts';
import { readUrlEncodedBody } from '../../lib/http/body.ts';
import { grantCookies, PASSWORD_GRANT_SECONDS } from './grant.server.ts';

/** Why the form shows again. */
export type PasswordError = 'empty' | 'wrong' | 'limited' | 'invalid';

export type PasswordPostResult =
  | { kind: 'granted'; status: 303; location: string; cookies: string[] }
  | { kind: 'refused'; status: 400 | 403 | 413 | 415 | 429; error: PasswordError; retryAfterSeconds?: number };

export interface PasswordPostDeps {
  /** The page's password hash from the content hub (null: no password opens it). */
  passwordHash: (pageId: string) => Promise<string | null>;
  limiter: RateLimiter;
  secret: string;
  now?: () => number;
}

export interface PasswordPost {
  request: Request;
  /** Who is asking (rate-limit key). */
  client: string;
  /** The protected page whose password this is. */
  pageId: string;
  /** Its URL path: the grant cookie's Path. */
  grantPath: string;
  /** Where to go once granted (the URL path the visitor asked for). */
  target: string;
  url: URL;
}

/** A form body is tiny: one password field. */
export const MAX_FORM_BYTES = 4 * 1024;
const FormSchema = v.object({ password: v.pipe(v.string(), v.maxLength(256)) });
/** A well-formed hash of no password, verified when a page has none: the answer then takes as long as a real check. */
const NO_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** The fields of a url-encoded form body of at most `maxBytes`, or why not. */
export async function readFormBody(request: Request, maxBytes = MAX_FORM_BYTES): Promise<{ kind: 'ok'; fields: Record<string, string> } | { kind: 'unsupported' | 'too-large' }> {
  const body = await readUrlEncodedBody(request, maxBytes);
  if (body.kind !== 'ok') return body;
  const fields: Record<string, string> = {};
  for (const [k, val] of body.value) fields[k] ??= val;
  return { kind: 'ok', fields };
}

/** Handles one password post (see the module comment). */
export async function handlePasswordPost(deps: PasswordPostDeps, post: PasswordPost): Promise<PasswordPostResult> {
  const body = await readFormBody(post.request);
  if (body.kind === 'unsupported') return { kind: 'refused', status: 415, error: 'invalid' };
  if (body.kind !== 'ok') return { kind: 'refused', status: 413, error: 'invalid' };
  const parsed = v.safeParse(FormSchema, { password: body.fields.password ?? '' });
  if (!parsed.success) return { kind: 'refused', status: 400, error: 'invalid' };
  const password = parsed.output.password;
  if (password.length === 0) return { kind: 'refused', status: 400, error: 'empty' };
  const now = deps.now?.() ?? Date.now();
  const limit = await deps.limiter.hit(`${post.client}|${post.pageId}`, now);
  if (!limit.allowed) return { kind: 'refused', status: 429, error: 'limited', retryAfterSeconds: limit.retryAfterSeconds };
  const hash = await deps.passwordHash(post.pageId);
  const ok = await verifyPassword(password, hash ?? NO_HASH);
  if (!ok || !hash) return { kind: 'refused', status: 403, error: 'wrong' };
  const cookies = grantCookies({ pageId: post.pageId, path: post.grantPath, ttlSeconds: PASSWORD_GRANT_SECONDS, secret: deps.secret, url: post.url, now });
  return { kind: 'granted', status: 303, location: post.target, cookies };
}
