import { describe, expect, it } from 'vitest';
import { dedupeSpecifications, formatSpecification, specificationsFor, variantName, withVariant, type SpecificationLike } from './specifications.ts';

const m = (name: string, value: string, unit: string): SpecificationLike => ({ name, value, unit, measurementSystem: 'Metric' });
const i = (name: string, value: string, unit: string): SpecificationLike => ({ name, value, unit, measurementSystem: 'Imperial' });
const n = (name: string, value: string): SpecificationLike => ({ name, value, unit: null, measurementSystem: null });

const kappa = [m('Weight', '60', 'kg'), i('Weight', '132', 'lb'), n('Stations', '1'), m('Speed', '4', 'm/s'), i('Speed', '13.1', 'ft/s'), m('Weight', '60', 'kg'), i('Weight', '132', 'lb')];

describe('specificationsFor', () => {
  it('shows the chosen system and unitless specifications only', () => {
    expect(specificationsFor(kappa, 'Metric').map((s) => formatSpecification(s, 'en'))).toEqual(['60\u00a0kg', '1', '4\u00a0m/s']);
    expect(specificationsFor(kappa, 'Imperial').map((s) => formatSpecification(s, 'en'))).toEqual(['132\u00a0lb', '1', '13.1\u00a0ft/s']);
  });

  it('drops a duplicate name-plus-unit (kappa-310 lists its weight twice)', () => {
    expect(specificationsFor(kappa, 'Metric').filter((s) => s.name === 'Weight')).toHaveLength(1);
  });
});

describe('formatSpecification', () => {
  it('writes the reading in the page locale (German as de-CH) and keeps the unit', () => {
    expect(formatSpecification(m('Weight', '1.4', 'kg'), 'fr')).toBe('1,4\u00a0kg');
    expect(formatSpecification(m('Weight', '5200', 'kg'), 'de-CH')).toBe('5’200\u00a0kg');
    expect(formatSpecification(m('Size', '2300 × 1450 × 1950', 'mm'), 'en')).toBe('2,300 × 1,450 × 1,950\u00a0mm');
    expect(formatSpecification(n('Interfaces', 'OPC UA, MQTT'), 'fr')).toBe('OPC UA, MQTT');
  });
});

describe('dedupeSpecifications', () => {
  it('keeps the first of each name and unit, and the same name with another unit', () => {
    expect(dedupeSpecifications([m('A', '1', 'mm'), m('A', '2', 'mm'), m('A', '3', 'cm'), n('A', '4'), n('A', '5')]).map((s) => s.value)).toEqual(['1', '3', '4']);
  });
});

describe('withVariant', () => {
  it('lets a variant reading replace the product reading of the same name and system, and adds its own', () => {
    const merged = withVariant([m('Cross-section', '0.05 – 6', 'mm²'), i('Cross-section', '30 – 10', 'AWG'), n('Stations', '1')],
      [m('Cross-section', '0.5 – 6', 'mm²'), i('Cross-section', '20 – 10', 'AWG'), m('Stroke', '30', 'mm')]);
    expect(merged.map((s) => formatSpecification(s, 'en'))).toEqual(['0.5 – 6\u00a0mm²', '20 – 10\u00a0AWG', '1', '30\u00a0mm']);
  });

  it('is the product itself without a variant', () => {
    const product = [n('A', '1')];
    expect(withVariant(product, undefined)).toBe(product);
  });
});

describe('variantName', () => {
  it('follows the measurement system', () => {
    const v = { nameMetric: 'Kappa 310 (0.5–6 mm²)', nameImperial: 'Kappa 310 (AWG 20–10)' };
    expect(variantName(v, 'Metric')).toBe('Kappa 310 (0.5–6 mm²)');
    expect(variantName(v, 'Imperial')).toBe('Kappa 310 (AWG 20–10)');
  });
});
