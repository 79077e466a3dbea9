import { describe, expect, it } from 'vitest';
import { authorizeErrorMessage, isRecoverable, RECOVERABLE_MESSAGES } from './errors.ts';

describe('recoverable silent sign-in failures (spec §4 step 3, §8)', () => {
  it('are exactly the seven messages of the spec', () => {
    expect(RECOVERABLE_MESSAGES).toEqual([
      'Authentication or consent required', 'Authorization timed out', 'Failed to fetch', 'NetworkError when attempting to fetch resource.',
      'Cross-origin redirection', 'The request requires some interaction that is not allowed.', 'User authentication is required',
    ]);
    for (const m of RECOVERABLE_MESSAGES) expect(isRecoverable(new Error(m)), m).toBe(true);
  });
  it('a Failed to fetch TypeError counts (the browser throws it for an unreachable provider)', () => {
    expect(isRecoverable(new TypeError('Failed to fetch'))).toBe(true);
    expect(isRecoverable('Authorization timed out')).toBe(true);
  });
  it('any other error is thrown, and nothing is recoverable outside login mode redirect', () => {
    expect(isRecoverable(new Error('State mismatch'))).toBe(false);
    expect(isRecoverable(new Error('failed to fetch'))).toBe(false);
    expect(isRecoverable(null)).toBe(false);
    expect(isRecoverable(new Error('Authorization timed out'), 'none')).toBe(false);
  });
  it('the prompt=none error codes become the spec texts; others keep the provider words', () => {
    expect(authorizeErrorMessage('login_required', 'End-User authentication is required')).toBe('User authentication is required');
    expect(authorizeErrorMessage('consent_required')).toBe('Authentication or consent required');
    expect(authorizeErrorMessage('account_selection_required')).toBe('Authentication or consent required');
    expect(authorizeErrorMessage('interaction_required')).toBe('The request requires some interaction that is not allowed.');
    expect(authorizeErrorMessage('access_denied', 'no')).toBe('access_denied: no');
    expect(authorizeErrorMessage('server_error')).toBe('server_error');
  });
});
