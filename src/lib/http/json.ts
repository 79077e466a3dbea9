/**
 * The JSON answer of every API route: UTF-8, and never stored by shared caches unless
 * `cacheControl` says so.
 * @example json({ error: 'slugs is required' }, 400)
 */
export function json(body: unknown, status = 200, cacheControl = 'no-store'): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': cacheControl } });
}

/** The `message` of a 400 that refuses fields one by one (`{ error: 'invalid-fields', message, fields: { field: text } }`): the texts per field are what a form shows. */
export const FIELDS_MESSAGE = 'Some fields are not valid: see fields.';
