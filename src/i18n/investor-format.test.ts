import { describe, expect, it } from 'vitest';
import { formatAxisMonth, formatCurrency, formatDay, formatMonth, formatNumber, formatPercent } from './format.ts';

// Non-breaking spaces and the narrow one (fr) made visible, so expectations can be written out.
const visible = (s: string) => s.replace(/\u202f/g, '⍽').replace(/\u00a0/g, '·');

describe('investor number formats', () => {
  it('groups German as de-CH with the typographic apostrophe (1’234.5)', () => {
    expect(formatNumber(1234.5, 'de-CH', 1)).toBe('1’234.5');
    expect(formatNumber(5134862, 'de-CH')).toBe('5’134’862');
    expect(formatNumber(1234.5, 'de-CH', 1)).not.toContain("'");
  });

  it('formats English, French and Japanese by their own rules', () => {
    expect(formatNumber(1234.5, 'en', 1)).toBe('1,234.5');
    expect(visible(formatNumber(1234.5, 'fr', 1))).toBe('1⍽234,5');
    expect(formatNumber(1234.5, 'ja', 1)).toBe('1,234.5');
  });

  it('keeps the asked decimals, rounding half away', () => {
    expect(formatNumber(0.1, 'en', 2)).toBe('0.10');
    expect(formatNumber(26.54, 'en', 1)).toBe('26.5');
    expect(formatNumber(2254, 'en')).toBe('2,254');
  });

  it('formats amounts with the currency in each locale’s place', () => {
    expect(visible(formatCurrency(1234.5, 'en', 'CHF'))).toBe('CHF·1,234.50');
    expect(visible(formatCurrency(1234.5, 'de-CH', 'CHF'))).toBe('CHF·1’234.50');
    expect(visible(formatCurrency(1234.5, 'fr', 'CHF'))).toBe('1⍽234,50·CHF');
    expect(visible(formatCurrency(5, 'ja', 'CHF'))).toBe('CHF·5.00');
    expect(visible(formatCurrency(246, 'en', 'CHF', 0))).toBe('CHF·246');
  });

  it('takes percentages as percent values and never shows float noise', () => {
    expect(formatPercent(45.9, 'en')).toBe('45.9%');
    expect(formatPercent(5 / 9.27 * 100, 'en')).toBe('53.9%');
    expect(formatPercent(53.900000000000006, 'en')).toBe('53.9%');
    expect(visible(formatPercent(45.9, 'fr'))).toBe('45,9·%');
    expect(formatPercent(45.9, 'de-CH')).toBe('45.9%');
    expect(formatPercent(40, 'en', 0)).toBe('40%');
    expect(formatPercent(45.9, 'ja')).toBe('45.9%');
  });
});

describe('investor date formats', () => {
  it('formats the spec’s calendar days per locale', () => {
    expect(formatDay('2023-03-14', 'en')).toBe('March 14, 2023');
    expect(formatDay('2023-04-12', 'de-CH')).toBe('12. April 2023');
    expect(formatDay('2023-08-17', 'fr')).toBe('17 août 2023');
    expect(formatDay('2023-03-14', 'ja')).toBe('2023年3月14日');
  });

  it('keeps a calendar day on its day whatever the time zone (formatted in UTC)', () => {
    // 1 January at UTC midnight is still 31 December in America: a local-time format would say so.
    expect(formatDay('2023-01-01', 'en')).toBe('January 1, 2023');
  });

  it('formats months for tables and axes', () => {
    expect(formatMonth('2021-01-29', 'en')).toBe('Jan 2021');
    expect(formatMonth('2021-01-29', 'de-CH')).toBe('Jan. 2021');
    expect(formatMonth('2021-01-29', 'ja')).toBe('2021年1月');
    expect(formatAxisMonth('2022-12-30', 'en')).toBe('Dec 22');
  });
});
