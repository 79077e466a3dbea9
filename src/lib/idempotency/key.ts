import * as v from 'valibot';

/**
 * The `Idempotency-Key` request header (IETF draft-ietf-httpapi-idempotency-key-header): a
 * structured-field String naming one logical write, so that a retry after an unknown outcome is
 * answered with the first result instead of repeating the write. Browser-safe (no Node imports):
 * the islands make and send keys with the same rules the server checks.
 * @example headers[IDEMPOTENCY_HEADER] = formatIdempotencyKey(newIdempotencyKey()) // "\"6f1c…\""
 */

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** How long a key's first result is kept (our server and the emulators): a day. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export const KEY_MIN = 16;
export const KEY_MAX = 128;

/**
 * A key as the value of the header: 16 to 128 letters, digits, `-`, `_`, `.` or `:` (a UUID fits).
 * Long enough that a key cannot be guessed, short enough to store, plain enough to log.
 */
export const IdempotencyKey = v.pipe(
  v.string(),
  v.minLength(KEY_MIN, `The Idempotency-Key must have at least ${KEY_MIN} characters.`),
  v.maxLength(KEY_MAX, `The Idempotency-Key may have at most ${KEY_MAX} characters.`),
  v.regex(/^[A-Za-z0-9._:-]+$/, 'The Idempotency-Key may only hold letters, digits, "-", "_", "." and ":".'),
);

export type KeyRead =
  | { kind: 'ok'; key: string }
  | { kind: 'missing' }
  | { kind: 'malformed'; message: string };

/**
 * The key of a request's `Idempotency-Key` header. The draft's form is a quoted sf-string
 * (`"8e03978e-…"`); the bare value many clients send is taken as well.
 */
export function readIdempotencyKey(headers: Headers): KeyRead {
  const raw = headers.get(IDEMPOTENCY_HEADER);
  if (raw === null) return { kind: 'missing' };
  return parseIdempotencyKey(raw);
}

/** The key of a header value (quoted or bare), or why it is not one. */
export function parseIdempotencyKey(raw: string): Exclude<KeyRead, { kind: 'missing' }> {
  const value = raw.trim();
  const quoted = /^"(.*)"$/.exec(value);
  if (!quoted && value.includes('"')) return { kind: 'malformed', message: 'The Idempotency-Key must be one quoted string, such as "5f3c2a9e-8d1b-4c7a-9e2f-1a2b3c4d5e6f".' };
  const checked = v.safeParse(IdempotencyKey, quoted ? quoted[1]! : value);
  return checked.success ? { kind: 'ok', key: checked.output } : { kind: 'malformed', message: checked.issues[0].message };
}

/** The header value of a key: the draft's quoted sf-string. */
export const formatIdempotencyKey = (key: string): string => `"${key}"`;

/** A new random key (a UUID), in the browser and on the server. */
export const newIdempotencyKey = (): string => globalThis.crypto.randomUUID();

/**
 * The key of one form while it is open (browser): made when the form opens, the same for every
 * retry of the same content, a new one once the content changed after an attempt (that is a new
 * request) or after an answer that settled the attempt (success or refusal).
 * @example const keys = keyHolder(); … send(body, keys.for(JSON.stringify(body))); … if (ok) keys.settle();
 */
export function keyHolder(make: () => string = newIdempotencyKey) {
  let key = make();
  let content: string | null = null;
  return {
    /** The key to send `body` with. */
    for(body: string): string {
      if (content !== null && content !== body) key = make();
      content = body;
      return key;
    },
    /** The attempt is settled (created or refused): the next send is a new request. */
    settle(): void {
      key = make();
      content = null;
    },
    /** The current key (for a hidden field or a test). */
    get current(): string {
      return key;
    },
  };
}

export type KeyHolder = ReturnType<typeof keyHolder>;

/**
 * Whether an answer leaves it open whether the write happened: the request went out and no
 * answer came (`null`: a network error after sending), a gateway said the service did not answer
 * in time (504) or answered badly (502), or the same key is still being worked on (409). Our
 * server answers 503 only when the service was not reached (nothing happened) and 408 when the
 * visitor's upload stalled (the service never got all of it).
 */
export function outcomeUnknown(status: number | null): boolean {
  return status === null || status === 502 || status === 504 || status === 409;
}
