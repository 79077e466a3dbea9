import { REDACTED, SENSITIVE_KEY } from './redact.ts';

const MAX_VARIABLE_LENGTH = 50;

/**
 * Logged request variables are truncated to 50 characters (spec §9); values under sensitive
 * keys (password, token, …) are censored before, so no cut can leave part of one.
 */
export function truncateVariables(variables: unknown): string {
  const text = JSON.stringify(variables ?? {}, (key, value: unknown) => (key && SENSITIVE_KEY.test(key) ? REDACTED : value)) ?? '{}';
  return text.length > MAX_VARIABLE_LENGTH ? `${text.slice(0, MAX_VARIABLE_LENGTH)}…` : text;
}
