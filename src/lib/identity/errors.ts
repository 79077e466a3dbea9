/**
 * The silent sign-in failures that send the visitor to sign in (spec customer-area §4 step 3,
 * §8), verbatim; any other error is thrown.
 */
export const RECOVERABLE_MESSAGES = [
  'Authentication or consent required',
  'Authorization timed out',
  'Failed to fetch',
  'NetworkError when attempting to fetch resource.',
  'Cross-origin redirection',
  'The request requires some interaction that is not allowed.',
  'User authentication is required',
] as const;

/** How the app signs in when the silent attempt fails recoverably (the spec's login mode). */
export type LoginMode = 'redirect' | 'none';

/** Whether a silent sign-in failure leads to the sign-in page (only in login mode 'redirect'). */
export function isRecoverable(err: unknown, mode: LoginMode = 'redirect'): boolean {
  if (mode !== 'redirect') return false;
  const message = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  return (RECOVERABLE_MESSAGES as readonly string[]).includes(message);
}

/**
 * The message of an OAuth error answer to a prompt=none authorization (RFC 6749 4.1.2.1, OIDC
 * 3.1.2.6): the standard codes become the spec's texts; anything else keeps the provider's words.
 */
export function authorizeErrorMessage(error: string, description?: string | null): string {
  switch (error) {
    case 'login_required':
      return 'User authentication is required';
    case 'consent_required':
    case 'account_selection_required':
      return 'Authentication or consent required';
    case 'interaction_required':
      return 'The request requires some interaction that is not allowed.';
    default:
      return description ? `${error}: ${description}` : error;
  }
}
