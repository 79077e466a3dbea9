import { describe, expect, it } from 'vitest';
import { brandOf } from './brands.ts';
import type { Brand } from './types.ts';

const image = (name: string) => ({ url: `http://127.0.0.1:4100/assets/img/${name}.svg`, mimeType: 'image/svg+xml', alternativeText: `${name} logo` });
const brands: Brand[] = [
  { id: 'brand-komax', name: 'Komax', pimId: 'KMX', theme: 'Default', image: image('brand-komax') },
  { id: 'brand-lumeca', name: 'Lumeca', pimId: 'LUM', theme: 'Lumeca', image: image('brand-lumeca') },
];

describe('brandOf', () => {
  it('finds a catalogue brand by its PIM id and a content brand by its id', () => {
    expect(brandOf(brands, { pimId: 'LUM' })?.id).toBe('brand-lumeca');
    expect(brandOf(brands, { pimId: 'kmx' })?.name).toBe('Komax');
    expect(brandOf(brands, { id: 'brand-lumeca' })?.pimId).toBe('LUM');
  });
  it('is null for a brand the system data does not know', () => {
    expect(brandOf(brands, { pimId: 'XYZ' })).toBeNull();
    expect(brandOf(brands, { id: 'brand-x' })).toBeNull();
    expect(brandOf(brands, {})).toBeNull();
  });
});
