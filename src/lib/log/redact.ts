/**
 * Keeps secrets out of log lines: values under sensitive keys are replaced, and free text
 * (messages, error messages and stacks, strings anywhere in a log object) is scrubbed of
 * authorization and cookie headers, bearer and basic credentials, JWTs, `password=`-style pairs,
 * the seal of a download link and the literal secret values the process was configured with. Pure: no Node APIs.
 */
export const REDACTED = '[redacted]';

/** Keys whose values are never logged (any depth, any case). */
export const SENSITIVE_KEY = /passw(?:or)?d|^pwd$|^pass$|secret|token|authori[sz]ation|cookie|api[-_]?key|credential|^session(?:[-_]?id)?$|signature/i;

/** The paths pino's `redact` censors before anything else looks at a log object. */
export const REDACT_PATHS = [
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-revalidate-secret"]', 'req.headers["proxy-authorization"]',
  'res.headers["set-cookie"]',
  'headers.authorization', 'headers.cookie', 'headers["set-cookie"]', 'headers["x-revalidate-secret"]',
  'password', 'secret', 'token', 'cookie', 'authorization',
  '*.password', '*.secret', '*.token', '*.cookie', '*.authorization',
];

/**
 * A sealed download link of the tickets proxy (`/api/ticketing/download/<sealed>`, see
 * features/tickets/proxy.server.ts DOWNLOAD_PATH): whoever has it downloads the file for a few
 * minutes, so a log line keeps the path and drops the seal.
 */
const SEALED_LINK = /(\/api\/ticketing\/download\/)[A-Za-z0-9_-]+/g;
const HEADER = /\b(authorization|proxy-authorization|cookie|set-cookie|x-revalidate-secret|x-api-key)((?:"|')?\s*[:=]\s*(?:"|')?)([^\r\n"']*)/gi;
const SCHEME = /\b(bearer|basic)\s+[A-Za-z0-9\-._~+/]+=*/gi;
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
const NAME = String.raw`[\w-]*(?:passw(?:or)?d|pwd|secret|token|api[-_]?key|credential|signature)[\w-]*`;
const JSON_PAIR = new RegExp(String.raw`"(${NAME})"\s*:\s*"(?:[^"\\]|\\.)*(?:"|$)`, 'gi');
const PAIR = new RegExp(String.raw`\b(${NAME})(\s*[=:]\s*)(?!\[redacted\])[^\s&"',;]+`, 'gi');

/** Replaces secrets in free text; `secrets` are literal values (shorter than 6 characters are ignored). */
export function scrubText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) if (s.length >= 6 && out.includes(s)) out = out.split(s).join(REDACTED);
  return out
    .replace(HEADER, (_m, name: string, sep: string) => `${name}${sep}${REDACTED}`)
    .replace(SCHEME, (_m, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(SEALED_LINK, (_m, path: string) => `${path}${REDACTED}`)
    .replace(JSON_PAIR, (_m, name: string) => `"${name}":"${REDACTED}"`)
    .replace(PAIR, (_m, name: string, sep: string) => `${name}${sep}${REDACTED}`);
}

const MAX_DEPTH = 8;

/**
 * A copy of a log value that is safe to print: sensitive keys censored, strings scrubbed, errors
 * turned into `{ type, message, stack, … }` (scrubbed as well), nesting cut at 8 levels.
 */
export function redactValue(value: unknown, secrets: readonly string[] = [], depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets, depth + 1));
  if (value instanceof Error) {
    const out: Record<string, unknown> = { type: value.name, message: scrubText(value.message, secrets) };
    if (value.stack) out.stack = scrubText(value.stack, secrets);
    for (const [k, v] of Object.entries(value)) if (!(k in out)) out[k] = SENSITIVE_KEY.test(k) ? REDACTED : redactValue(v, secrets, depth + 1);
    if (value.cause !== undefined) out.cause = redactValue(value.cause, secrets, depth + 1);
    return out;
  }
  if (value instanceof Date || ArrayBuffer.isView(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SENSITIVE_KEY.test(k) ? REDACTED : redactValue(v, secrets, depth + 1);
  return out;
}

/** Literal secret values of an environment: every variable whose name says it holds one. */
export function secretsOf(env: Record<string, string | undefined>): string[] {
  return Object.entries(env)
    .filter(([k, v]) => /SECRET|TOKEN|PASSWORD|PASSWD|API_KEY|PRIVATE_KEY|CREDENTIAL/i.test(k) && typeof v === 'string' && v.length >= 6)
    .map(([, v]) => v!);
}
