import { describe, expect, it } from 'vitest';
import { comparisonCsv, csvField, csvFileName, toCsv } from './csv.ts';
import type { ComparisonRow } from './rows.ts';

describe('csv', () => {
  it('quotes fields with commas, quotes and line breaks', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(toCsv([['a', 'b'], ['c,d', 'e']])).toBe('a,b\r\n"c,d",e');
  });

  it('defuses text a spreadsheet would run as a formula, but keeps negative numbers', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('-40 – 85 °C')).toBe('-40 – 85 °C');
    expect(csvField('-x')).toBe("'-x");
  });

  it('writes the comparison table: products, variants, specifications, n/a cells', () => {
    const rows: ComparisonRow[] = [
      { name: 'Weight', cells: [{ value: '60 kg', notApplicable: false }, { value: '80 kg', notApplicable: false }], notApplicable: false, different: true },
      { name: 'Cross-section', cells: [{ value: '0.5 – 6 mm²', notApplicable: false }, { value: null, notApplicable: true }], notApplicable: true, different: true },
    ];
    const csv = comparisonCsv([{ name: 'Kappa 310', variantName: '0.5–6 mm²' }, { name: 'Kappa 320', variantName: null }], rows, { specification: 'Specification', variant: 'Variant', notApplicable: 'Not applicable' });
    expect(csv).toBe('\uFEFFSpecification,Kappa 310,Kappa 320\r\nVariant,0.5–6 mm²,\r\nWeight,60 kg,80 kg\r\nCross-section,0.5 – 6 mm²,Not applicable\r\n');
  });

  it('names the file after the classification', () => {
    expect(csvFileName('Cut & strip machines')).toBe('comparison-cut-strip-machines.csv');
    expect(csvFileName('Crimpmaschinen für Ädern')).toBe('comparison-crimpmaschinen-fur-adern.csv');
    expect(csvFileName('剥线机')).toBe('comparison.csv');
  });
});
