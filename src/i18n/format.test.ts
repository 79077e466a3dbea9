import { describe, expect, it } from 'vitest';
import { formatFileSize, formatMeasurement, formatReading } from './format.ts';
import { formatLocale } from './index.ts';

// Issue 29: catalogue readings and sizes in the page's locale (German as de-CH, spec §9).
const NNBSP = '\u202f';
const NBSP = '\u00a0';
const de = formatLocale('de', 'DE');

describe('formatReading', () => {
  it('writes each number in the locale, with the decimals it was given', () => {
    expect(formatReading('1.4', 'en')).toBe('1.4');
    expect(formatReading('1.4', 'fr')).toBe('1,4');
    expect(formatReading('1.4', 'cs')).toBe('1,4');
    expect(formatReading('1.4', 'ja')).toBe('1.4');
    expect(formatReading('0.50', 'pt')).toBe('0,50');
    expect(formatReading('1.4', de)).toBe('1.4');
  });
  it('groups thousands as the locale does (de-CH with the typographic apostrophe)', () => {
    expect(formatReading('5200', de)).toBe('5’200');
    expect(formatReading('5200', 'en')).toBe('5,200');
    expect(formatReading('5200', 'fr')).toBe(`5${NNBSP}200`);
    expect(formatReading('5200', 'ja')).toBe('5,200');
    expect(formatReading('12500', 'es')).toBe('12.500');
  });
  it('formats ranges and dimensions number by number and keeps their signs', () => {
    expect(formatReading('0.05 – 2.5', 'fr')).toBe('0,05 – 2,5');
    expect(formatReading('2300 × 1450 × 1950', de)).toBe('2’300 × 1’450 × 1’950');
    expect(formatReading('10× – 200×', 'de-CH')).toBe('10× – 200×');
    expect(formatReading('4 – 4/0', 'fr')).toBe('4 – 4/0');
    expect(formatReading('1 – 10000', 'cs')).toBe(`1 – 10${NBSP}000`);
  });
  it('leaves readings with words as they are', () => {
    for (const text of ['EN 60204-1', 'OPC UA, MQTT', 'Cloud (SaaS)', 'IP54', 'Electric']) expect(formatReading(text, 'fr')).toBe(text);
  });
});

describe('formatMeasurement', () => {
  it('joins reading and unit with a no-break space, and shows a unitless reading alone', () => {
    expect(formatMeasurement('1.4', 'kg', 'fr')).toBe(`1,4${NBSP}kg`);
    expect(formatMeasurement('5200', 'kg', de)).toBe(`5’200${NBSP}kg`);
    expect(formatMeasurement('0.05 – 6', 'mm²', 'hu')).toBe(`0,05 – 6${NBSP}mm²`);
    expect(formatMeasurement('1500', null, 'en')).toBe('1,500');
  });
});

describe('formatFileSize', () => {
  it('names the size in the locale’s unit and number format', () => {
    expect(formatFileSize(545154, 'en')).toBe('545.2 kB');
    expect(formatFileSize(545154, 'fr')).toBe(`545,2${NNBSP}ko`);
    expect(formatFileSize(545154, 'cs')).toBe('545,2 kB');
    expect(formatFileSize(3860205, 'ja')).toBe('3.9 MB');
    expect(formatFileSize(3860205, de)).toBe('3.9 MB');
    expect(formatFileSize(512, 'en')).toBe('512 byte');
  });
});
