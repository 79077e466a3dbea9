/**
 * The browser's cookies, read and written in one way: values URI-encoded, `Path=/`,
 * `SameSite=Lax`, `Secure` on https. Cookies set here are read by the server (middleware), so they
 * cannot be HttpOnly.
 */

/** The value of a cookie in a `document.cookie` string, or undefined. */
export function parseCookie(cookies: string, name: string): string | undefined {
  const hit = cookies.split(/;\s*/).find((c) => c.startsWith(`${name}=`));
  if (hit === undefined) return undefined;
  const raw = hit.slice(name.length + 1);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The `document.cookie` assignment that stores a cookie for `maxAge` seconds. */
export function serializeCookie(name: string, value: string, maxAge: number, secure: boolean): string {
  return `${name}=${encodeURIComponent(value)}; Max-Age=${maxAge}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** Reads a cookie in the browser. */
export function readCookie(name: string): string | undefined {
  return parseCookie(document.cookie, name);
}

/** Stores a cookie in the browser for `maxAge` seconds (Secure on https). */
export function writeCookie(name: string, value: string, maxAge: number): void {
  document.cookie = serializeCookie(name, value, maxAge, location.protocol === 'https:');
}
