import { describe, expect, it } from 'vitest';
import { contentLocaleChain, makeLocale, sisCode } from './locale.ts';

describe('sisCode', () => {
  it('maps languages as the spec lists, any other to en-US', () => {
    expect(sisCode('de')).toBe('de-CH');
    expect(sisCode('pt')).toBe('pt-BR');
    expect(sisCode('it')).toBe('en-US');
  });
});

describe('contentLocaleChain', () => {
  it('puts English last', () => {
    expect(contentLocaleChain(makeLocale('de', 'CH'))).toEqual(['de-CH', 'de', 'en']);
    expect(contentLocaleChain(makeLocale('en', null))).toEqual(['en']);
  });
});
