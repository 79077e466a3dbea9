import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allowInlineStyle, styleHash, themeRule, themeStyle } from './inline-style.ts';
import { THEMES, themeClass } from '../site/themes.ts';

const css = readFileSync(new URL('../styles/themes.css', import.meta.url), 'utf8');

describe('themeRule', () => {
  it('finds the one rule of every theme in themes.css, and only that one', () => {
    for (const theme of THEMES) {
      const rule = themeRule(css, themeClass(theme));
      expect(rule, theme).toMatch(new RegExp(`^\\.${themeClass(theme)} \\{ --c-primary: #[0-9a-f]{6};[^}]*\\}$`));
      expect(rule!.match(/\{/g)).toHaveLength(1);
    }
  });

  it('does not take a longer class name for a shorter one, and answers null for an unknown class', () => {
    expect(themeRule('.theme-blue-x{--a:1}.theme-blue{--a:2}', 'theme-blue')).toBe('.theme-blue{--a:2}');
    expect(themeRule(css, 'theme-unknown')).toBeNull();
  });
});

describe('styleHash', () => {
  it('is the base64 sha256 of the exact text, as a CSP source without quotes', () => {
    expect(styleHash('a{b:c}')).toBe(`sha256-${createHash('sha256').update('a{b:c}').digest('base64')}`);
  });
});

describe('themeStyle', () => {
  it('is html plus the theme rule, so it outweighs :root; nothing for the default theme', () => {
    expect(themeStyle(css, 'theme-vexo')).toMatch(/^html\.theme-vexo \{ --c-primary: #7a1020;/);
    expect(themeStyle(css, 'theme-default')).toBeNull();
  });
});

describe('allowInlineStyle', () => {
  it('adds the hash of the style to the policy, and nothing without a style or a policy', () => {
    const added: string[] = [];
    const csp = { insertStyleHash: (h: string) => void added.push(h) };
    allowInlineStyle(csp, '.a{b:c}');
    allowInlineStyle(csp, null);
    allowInlineStyle(undefined, '.a{b:c}');
    expect(added).toEqual([styleHash('.a{b:c}')]);
  });
});
