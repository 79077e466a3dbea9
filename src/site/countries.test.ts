import { describe, expect, it } from 'vitest';
import { isOfferedIn } from './countries.ts';

describe('isOfferedIn', () => {
  it('reads an empty list as everywhere', () => {
    expect(isOfferedIn([], 'CH')).toBe(true);
  });
  it('shows listed countries only', () => {
    expect(isOfferedIn(['DE', 'AT'], 'DE')).toBe(true);
    expect(isOfferedIn(['DE', 'AT'], 'CH')).toBe(false);
  });
  it('shows everything in the international view', () => {
    expect(isOfferedIn(['DE'], 'ALL')).toBe(true);
  });
});
