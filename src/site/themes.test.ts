import { describe, expect, it } from 'vitest';
import { BRAND_THEMES, THEMES, themeClass } from './themes.ts';

describe('THEMES', () => {
  it('has eleven themes: Default, Copper, Light_Blue, Iqc and seven brand themes', () => {
    expect(THEMES).toHaveLength(11);
    expect(new Set(THEMES).size).toBe(11);
    expect(THEMES.slice(0, 4)).toEqual(['Default', 'Copper', 'Light_Blue', 'Iqc']);
  });
});

describe('BRAND_THEMES', () => {
  it('are the themes without Copper, Light_Blue and Iqc', () => {
    expect(BRAND_THEMES).toEqual(THEMES.filter((t) => t !== 'Copper' && t !== 'Light_Blue' && t !== 'Iqc'));
    expect(BRAND_THEMES).toHaveLength(8);
    expect(BRAND_THEMES).toContain('Default');
  });
});

describe('themeClass', () => {
  it("is 'theme-' plus the lowercased name with a dash", () => {
    expect(themeClass('Light_Blue')).toBe('theme-light-blue');
    expect(themeClass('Copper')).toBe('theme-copper');
    expect(themeClass('Iqc')).toBe('theme-iqc');
  });

  it('gives a distinct class for every theme', () => {
    expect(new Set(THEMES.map(themeClass)).size).toBe(11);
  });

  it('matches names without regard to case', () => {
    expect(themeClass('light_blue')).toBe('theme-light-blue');
  });

  it('falls back to the default theme for unknown or missing names', () => {
    expect(themeClass('Purple')).toBe('theme-default');
    expect(themeClass(null)).toBe('theme-default');
    expect(themeClass(undefined)).toBe('theme-default');
  });
});
