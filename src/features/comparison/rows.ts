import type { MeasurementSystem } from '../../site/types.ts';
import { formatSpecification, specificationsFor, withVariant, type SpecificationLike } from '../technical-data/specifications.ts';

/** One product column of a comparison: its own readings and those of its chosen variant. */
export interface ComparisonColumnInput {
  specifications: SpecificationLike[];
  variants: { id: string; specifications: SpecificationLike[] }[];
  selectedVariantId: string | null;
}

export interface ComparisonCell {
  /** 'value unit', or null when the product has no such specification. */
  value: string | null;
  notApplicable: boolean;
}

export interface ComparisonRow {
  name: string;
  cells: ComparisonCell[];
  /** Some product has no such specification. */
  notApplicable: boolean;
  /** Not every product shows the same value (always false with a single product). */
  different: boolean;
}

/** A column's specifications in a measurement system: product readings with the variant's merged in. */
export function columnSpecifications(c: ComparisonColumnInput, system: MeasurementSystem): SpecificationLike[] {
  const variant = c.variants.find((v) => v.id === c.selectedVariantId);
  return specificationsFor(withVariant(c.specifications, variant?.specifications), system);
}

/**
 * The rows of a comparison in one measurement system (spec §3), values in the number format of
 * `locale` (an Intl locale, de-CH for German): one per specification name, in
 * the order they first appear; a cell is marked notApplicable where a product lacks the
 * specification, a row different where the products do not all show the same value.
 */
export function comparisonRows(columns: ComparisonColumnInput[], system: MeasurementSystem, locale: string): ComparisonRow[] {
  const perColumn = columns.map((c) => columnSpecifications(c, system));
  const names: string[] = [];
  for (const specs of perColumn) for (const s of specs) if (!names.includes(s.name)) names.push(s.name);
  return names.map((name) => {
    const cells = perColumn.map((specs): ComparisonCell => {
      const s = specs.find((x) => x.name === name);
      return s ? { value: formatSpecification(s, locale), notApplicable: false } : { value: null, notApplicable: true };
    });
    const values = new Set(cells.map((c) => c.value));
    return { name, cells, notApplicable: cells.some((c) => c.notApplicable), different: cells.length > 1 && values.size > 1 };
  });
}

/** The rows to show: all, or only those that differ. */
export function visibleRows(rows: ComparisonRow[], hideIdentical: boolean): ComparisonRow[] {
  return hideIdentical ? rows.filter((r) => r.different) : rows;
}
