import { formatMeasurement } from '../../i18n/format.ts';
import type { MeasurementSystem } from '../../site/types.ts';

/** The fields the filtering needs; catalogue specifications and comparison rows both fit. */
export interface SpecificationLike {
  name: string;
  value: string;
  unit: string | null;
  measurementSystem: MeasurementSystem | null;
}

/**
 * The specifications to show in a measurement system (spec §5): unitless ones and the readings of
 * that system only; a second specification with the same name and unit is dropped.
 *
 * @example specificationsFor([{ name: 'Weight', value: '60', unit: 'kg', measurementSystem: 'Metric' },
 *   { name: 'Weight', value: '132', unit: 'lb', measurementSystem: 'Imperial' }], 'Imperial')
 *   // [{ name: 'Weight', value: '132', unit: 'lb', measurementSystem: 'Imperial' }]
 */
export function specificationsFor<S extends SpecificationLike>(specs: S[], system: MeasurementSystem): S[] {
  return dedupeSpecifications(specs.filter((s) => s.measurementSystem === null || s.measurementSystem === system));
}

/** Drops every specification whose name and unit an earlier one already had. */
export function dedupeSpecifications<S extends SpecificationLike>(specs: S[]): S[] {
  const seen = new Set<string>();
  return specs.filter((s) => {
    const key = `${s.name}\u0000${s.unit ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A product's specifications with a variant's merged in: a variant reading replaces the product's
 * reading of the same name and system; readings only the variant has are added.
 */
export function withVariant<S extends SpecificationLike>(product: S[], variant: S[] | undefined): S[] {
  if (!variant?.length) return product;
  const key = (s: S) => `${s.name}\u0000${s.measurementSystem ?? ''}`;
  const overrides = new Map(variant.map((s) => [key(s), s]));
  const merged = product.map((s) => overrides.get(key(s)) ?? s);
  const present = new Set(product.map(key));
  return [...merged, ...variant.filter((s) => !present.has(key(s)))];
}

/** A variant's name in a measurement system. */
export function variantName(v: { nameMetric: string; nameImperial: string }, system: MeasurementSystem): string {
  return system === 'Imperial' ? v.nameImperial : v.nameMetric;
}

/** 'value unit' in the page's number format (`locale`: an Intl locale, de-CH for German), or the value alone for a unitless specification. */
export function formatSpecification(s: Pick<SpecificationLike, 'value' | 'unit'>, locale: string): string {
  return formatMeasurement(s.value, s.unit, locale);
}
