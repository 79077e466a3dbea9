import type { Brand } from './types.ts';

/**
 * The group brand a catalogue product or a location names, from the system data: the catalogue
 * names it by its PIM id (`LUM`), the content hub by its own id (`brand-lumeca`). Null when
 * the system data does not know it.
 * @example brandOf(system.brands, { pimId: 'LUM' })?.name // 'Lumeca'
 */
export function brandOf(brands: readonly Brand[], ref: { id?: string; pimId?: string }): Brand | null {
  if (ref.id) return brands.find((b) => b.id === ref.id) ?? null;
  if (ref.pimId) return brands.find((b) => b.pimId.toUpperCase() === ref.pimId!.toUpperCase()) ?? null;
  return null;
}
