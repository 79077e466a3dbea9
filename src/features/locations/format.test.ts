import { describe, expect, it } from 'vitest';
import { countryNamer, formatOpeningHours, telHref } from './format.ts';

describe('formatOpeningHours', () => {
  it('names days and times in the page\'s locale', () => {
    expect(formatOpeningHours({ from: 'mon', to: 'fri', opens: '08:00', closes: '17:00' }, 'de-CH')).toEqual({ days: 'Mo–Fr', times: '8:00–17:00' });
    expect(formatOpeningHours({ from: 'sat', to: 'sat', opens: '08:00', closes: '12:30' }, 'en-US')).toEqual({ days: 'Sat', times: '8:00 AM–12:30 PM' });
  });
});

describe('telHref / countryNamer', () => {
  it('makes a tel: URI without spaces', () => {
    expect(telHref('+49 202 69 87 10')).toBe('tel:+49202698710');
  });

  it('names countries in the locale, the code when unknown', () => {
    expect(countryNamer('de-CH')('DE')).toBe('Deutschland');
    expect(countryNamer('en')('CH')).toBe('Switzerland');
    expect(countryNamer('en')('1')).toBe('1');
  });
});
