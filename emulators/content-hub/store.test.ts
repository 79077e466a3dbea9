import { describe, expect, it } from 'vitest';
import { pickLocale } from './store.ts';

const title = { en: 'About us', de: 'Über uns', 'de-CH': 'Über üs', fr: 'À propos' };

describe('pickLocale', () => {
  it('takes the first locale of the ordered list the value has', () => {
    expect(pickLocale(title, ['de-CH', 'de', 'en'])).toEqual({ lang: 'de-CH', value: 'Über üs' });
    expect(pickLocale(title, ['fr-CH', 'fr', 'en'])).toEqual({ lang: 'fr', value: 'À propos' });
  });

  it('falls back from a country locale to its language', () => {
    expect(pickLocale(title, ['de-AT'])).toEqual({ lang: 'de', value: 'Über uns' });
  });

  it('respects the order of the list', () => {
    expect(pickLocale(title, ['en', 'de'])).toEqual({ lang: 'en', value: 'About us' });
    expect(pickLocale(title, ['ja', 'fr', 'en'])).toEqual({ lang: 'fr', value: 'À propos' });
  });

  it('matches locale keys without regard to case', () => {
    expect(pickLocale(title, ['DE-ch'])).toEqual({ lang: 'de-CH', value: 'Über üs' });
  });

  it('uses the first key as a last resort', () => {
    expect(pickLocale({ ja: '会社概要', zh: '关于我们' }, ['de-CH', 'de', 'en'])).toEqual({ lang: 'ja', value: '会社概要' });
  });

  it('keeps falsy values that exist', () => {
    expect(pickLocale({ de: '', en: 'x' }, ['de', 'en'])).toEqual({ lang: 'de', value: '' });
  });

  it('is null for a missing or empty value', () => {
    expect(pickLocale(undefined, ['en'])).toBeNull();
    expect(pickLocale({}, ['en'])).toBeNull();
  });
});
