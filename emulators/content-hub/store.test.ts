import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/lib/crypto/password.ts';
import { ContentStore, pickLocale } from './store.ts';

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

describe('the demo data (emulators/data/content)', () => {
  // Spec §2.4 and §3 (named pages): the password-protected internal pages, each opening with the
  // password emulators/data/README.md lists for it.
  it('has every protected page of spec §2.4, each with its README password', async () => {
    const store = new ContentStore(fileURLToPath(new URL('../data/content', import.meta.url)));
    const at = (path: string) => store.data.pages.find((p) => p.site === 'site-main' && store.pathOf(p) === path);
    const expected: [string, string][] = [
      ['/productronica/internal', 'Productronica-Booth-2025'],
      ['/events/internal-2025', 'Event-Kit-2025'],
      ['/events/internal-2024', 'Event-Kit-2024'],
      ['/events/internal-wirepro-expo-grafenau', 'WirePro-Expo-Grafenau'],
      ['/events/internal-productronica', 'Productronica-Internal-2025'],
      ['/p3k8v2qw', 'Partner-Preview-2026'],
    ];
    for (const [path, password] of expected) {
      const page = at(path);
      expect(page?.protection, path).toBe(1);
      expect(await verifyPassword(password, page!.passwordHash!), path).toBe(true);
    }
    // The two {token} children of internal-2025 are protected by it.
    for (const token of ['x4m9q2tz', 'r7k2p9wd']) expect(at(`/events/internal-2025/${token}`)?.protection).toBe(0);
  });
});
