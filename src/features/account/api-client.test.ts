import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json' with { type: 'json' };
import { failureMessages, outcomeOf, ProfileSchema, thrown } from './api-client.ts';
import type { PolicyKey } from './policy.ts';

const res = (status: number, body?: unknown) => new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const profile = { id: 'u1', userName: 'u', firstName: 'A', lastName: 'B', company: '', email: '', telephone: '', address: '', postalCode: '', city: '', country: '', language: '', internallyManaged: false, mfaDevices: 1 };

describe('outcomeOf', () => {
  it('a success with the expected body; 204 without one', async () => {
    expect(await outcomeOf(res(200, profile), ProfileSchema)).toEqual({ kind: 'ok', value: profile });
    expect(await outcomeOf(res(204))).toEqual({ kind: 'ok', value: undefined });
  });

  it('a success with another body is a failure with its detail', async () => {
    expect((await outcomeOf(res(200, { id: 1 }), ProfileSchema)).kind).toBe('failed');
  });

  it('422 gives the field failures', async () => {
    expect(await outcomeOf(res(422, { failures: [{ field: 'password', code: 'MIN_LENGTH', params: { minLength: 10 } }] }))).toEqual({
      kind: 'invalid', failures: [{ field: 'password', code: 'MIN_LENGTH', params: { minLength: 10 } }],
    });
  });

  it('403 is a refusal, anything else a failure, both with the status and the API\'s words', async () => {
    expect(await outcomeOf(res(403, { error: 'internally-managed', message: 'This account is managed internally' }))).toEqual({ kind: 'refused', detail: '403 internally-managed: This account is managed internally' });
    expect(await outcomeOf(res(503, { error: 'unavailable' }))).toEqual({ kind: 'failed', detail: '503 unavailable' });
    expect(await outcomeOf(new Response('<html>', { status: 500 }))).toEqual({ kind: 'failed', detail: '500' });
    expect(thrown(new Error('Sign-in required'))).toEqual({ kind: 'failed', detail: 'Sign-in required' });
  });

  it('502, 504 and a network failure leave it unknown whether the change was applied (the profile form says so, not "could not be saved")', async () => {
    expect(await outcomeOf(res(502, { error: 'unavailable' }))).toEqual({ kind: 'failed', detail: '502 unavailable', unknown: true });
    expect(await outcomeOf(res(504, { error: 'timeout' }))).toEqual({ kind: 'failed', detail: '504 timeout', unknown: true });
    expect(thrown(new TypeError('Failed to fetch'))).toEqual({ kind: 'failed', detail: 'Failed to fetch', unknown: true });
  });
});

describe('failureMessages', () => {
  it('translated messages with bounds per form field; unknown fields go to the form', () => {
    const fieldOf = (f: string) => (f === 'password' ? 'newPassword' : f === 'currentPassword' ? f : null);
    expect(failureMessages([
      { field: 'password', code: 'MIN_LENGTH', params: { minLength: 10 } },
      { field: 'password', code: 'AT_LEAST_X_NUMBERS', params: { numNums: 1 } },
      { field: 'currentPassword', code: 'REAUTHENTICATION_FAILED', params: {} },
      { field: 'somethingElse', code: 'UNIQUE', params: {} },
    ], en as Record<PolicyKey, string>, new Intl.NumberFormat('en'), fieldOf)).toEqual({
      newPassword: ['At least 10 characters', 'Digits (0–9): at least 1'],
      currentPassword: ['The current password is not correct'],
      '': ['This value is already in use'],
    });
  });
});
