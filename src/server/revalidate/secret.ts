import type { IncomingHttpHeaders } from 'node:http';
import { givenSecret, secretMatches } from '../../lib/http/secret-guard.ts';

/** The webhook's own header for the secret (besides `Authorization: Bearer`). */
export const SECRET_HEADER = 'x-revalidate-secret';

/**
 * Whether a request may use the operator parameters (`?cache=false`, `?cache=clear`): it carries
 * the revalidation secret, in the same headers as POST /api/revalidate.
 */
export function hasRevalidateSecret(headers: Headers | IncomingHttpHeaders, expected: string | undefined): boolean {
  return secretMatches(givenSecret(headers, SECRET_HEADER), expected);
}
