import { describe, expect, it } from 'vitest';
import { ContentError, graphQLErrorMessage } from './errors.ts';

describe('graphQLErrorMessage', () => {
  it("is the first error's message", () => {
    expect(graphQLErrorMessage([{ message: 'Page not found' }, { message: 'Second' }], 200)).toBe('Page not found');
  });

  it('skips errors without a message', () => {
    expect(graphQLErrorMessage([{}, { message: 'Useful' }], 400)).toBe('Useful');
  });

  it("is 'GraphQL Error (Code: {status})' without any message", () => {
    expect(graphQLErrorMessage(undefined, 500)).toBe('GraphQL Error (Code: 500)');
    expect(graphQLErrorMessage([], 502)).toBe('GraphQL Error (Code: 502)');
    expect(graphQLErrorMessage([{ message: '' }], 400)).toBe('GraphQL Error (Code: 400)');
  });
});

describe('ContentError', () => {
  it('keeps the operation, the status and the cause', () => {
    const cause = new Error('socket hang up');
    const err = new ContentError('GraphQL Error (Code: 500)', { operation: 'systemData', status: 500, cause });
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('ContentError');
    expect(err.message).toBe('GraphQL Error (Code: 500)');
    expect(err.operation).toBe('systemData');
    expect(err.status).toBe(500);
    expect(err.cause).toBe(cause);
  });
});
