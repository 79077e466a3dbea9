import type { ComparisonRow } from './rows.ts';

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; formula-like text is defused. */
export function csvField(value: string): string {
  // A leading =, +, @ (or - not starting a number) would run as a formula in a spreadsheet.
  const safe = /^[=+@\t\r]/.test(value) || /^-(?![\d.])/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(table: string[][]): string {
  return table.map((row) => row.map(csvField).join(',')).join('\r\n');
}

export interface CsvProduct {
  name: string;
  variantName: string | null;
}

/**
 * The comparison table as CSV: a header with the products, a variant row when any product has a
 * variant, then one row per specification (`notApplicable` as the given text).
 */
export function comparisonCsv(products: CsvProduct[], rows: ComparisonRow[], labels: { specification: string; variant: string; notApplicable: string }): string {
  const table: string[][] = [[labels.specification, ...products.map((p) => p.name)]];
  if (products.some((p) => p.variantName)) table.push([labels.variant, ...products.map((p) => p.variantName ?? '')]);
  for (const r of rows) table.push([r.name, ...r.cells.map((c) => c.value ?? labels.notApplicable)]);
  // A byte order mark lets spreadsheet programs read the file as UTF-8 (mm², ×, accents).
  return `\uFEFF${toCsv(table)}\r\n`;
}

/** A safe file name from a title: `comparison-cut-strip.csv`. */
export function csvFileName(title: string): string {
  const slug = title.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return `comparison${slug ? `-${slug}` : ''}.csv`;
}
