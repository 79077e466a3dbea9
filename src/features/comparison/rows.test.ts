import { describe, expect, it } from 'vitest';
import { columnSpecifications, comparisonRows, visibleRows, type ComparisonColumnInput } from './rows.ts';
import type { SpecificationLike } from '../technical-data/specifications.ts';

const m = (name: string, value: string, unit: string): SpecificationLike => ({ name, value, unit, measurementSystem: 'Metric' });
const i = (name: string, value: string, unit: string): SpecificationLike => ({ name, value, unit, measurementSystem: 'Imperial' });
const n = (name: string, value: string): SpecificationLike => ({ name, value, unit: null, measurementSystem: null });

const kappa310: ComparisonColumnInput = {
  specifications: [m('Weight', '60', 'kg'), i('Weight', '132', 'lb'), n('Stations', '1'), m('Cross-section', '0.05 – 6', 'mm²'), i('Cross-section', '30 – 10', 'AWG')],
  variants: [{ id: 'v2', specifications: [m('Cross-section', '0.5 – 6', 'mm²'), i('Cross-section', '20 – 10', 'AWG')] }],
  selectedVariantId: null,
};
const kappa320: ComparisonColumnInput = {
  specifications: [m('Weight', '60', 'kg'), i('Weight', '132', 'lb'), n('Stations', '2'), m('Noise', '70', 'dB(A)'), i('Noise', '70', 'dB(A)')],
  variants: [],
  selectedVariantId: null,
};

describe('comparisonRows', () => {
  it('has one row per specification, in first-seen order, in the chosen system', () => {
    const rows = comparisonRows([kappa310, kappa320], 'Imperial', 'en');
    expect(rows.map((r) => r.name)).toEqual(['Weight', 'Stations', 'Cross-section', 'Noise']);
    expect(rows[0]!.cells.map((c) => c.value)).toEqual(['132\u00a0lb', '132\u00a0lb']);
  });

  it('marks rows that differ and cells that do not apply', () => {
    const rows = comparisonRows([kappa310, kappa320], 'Metric', 'en');
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(byName.Weight).toMatchObject({ different: false, notApplicable: false });
    expect(byName.Stations).toMatchObject({ different: true, notApplicable: false });
    expect(byName['Cross-section']).toMatchObject({ different: true, notApplicable: true });
    expect(byName['Cross-section']!.cells).toEqual([{ value: '0.05 – 6\u00a0mm²', notApplicable: false }, { value: null, notApplicable: true }]);
  });

  it('uses the selected variant', () => {
    expect(columnSpecifications({ ...kappa310, selectedVariantId: 'v2' }, 'Metric').find((s) => s.name === 'Cross-section')?.value).toBe('0.5 – 6');
    expect(columnSpecifications({ ...kappa310, selectedVariantId: 'v2' }, 'Imperial').find((s) => s.name === 'Cross-section')?.value).toBe('20 – 10');
  });

  it('writes the values in the page locale', () => {
    const rows = comparisonRows([kappa310, kappa320], 'Metric', 'fr');
    expect(rows.find((r) => r.name === 'Cross-section')!.cells[0]!.value).toBe('0,05 – 6\u00a0mm²');
    const heavy = { ...kappa320, specifications: [m('Weight', '5200', 'kg')] };
    expect(comparisonRows([heavy], 'Metric', 'de-CH')[0]!.cells[0]!.value).toBe('5’200\u00a0kg');
  });

  it('never marks a single product different', () => {
    expect(comparisonRows([kappa310], 'Metric', 'en').every((r) => !r.different)).toBe(true);
  });
});

describe('visibleRows', () => {
  it('hides identical rows on request', () => {
    const rows = comparisonRows([kappa310, kappa320], 'Metric', 'en');
    expect(visibleRows(rows, false)).toHaveLength(4);
    expect(visibleRows(rows, true).map((r) => r.name)).toEqual(['Stations', 'Cross-section', 'Noise']);
  });
});
