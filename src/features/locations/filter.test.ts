import { describe, expect, it } from 'vitest';
import { filterLocations, filterQuery, filteredCacheControl, hasFilterParams, matchesFilter, normalizeText, parseFilter, type FilterableLocation, type LocationFilter } from './filter.ts';

const entry = (name: string, city: string, countryCode: string, type: string, brandIds: string[] = []): FilterableLocation & { id: string } => ({ id: name, name, city, countryCode, type, brandIds });
const ENTRIES = [
  entry('Komax Service Center Wuppertal', 'Wuppertal', 'DE', 'service', ['brand-lumeca', 'brand-tarnell']),
  entry('Komax Service Point München', 'München', 'DE', 'service', ['brand-sirex']),
  entry('Komax Deutschland GmbH', 'Esslingen am Neckar', 'DE', 'subsidiary', ['brand-lumeca']),
  entry('Komax Service Center Zürich', 'Zürich', 'CH', 'service', ['brand-lumeca']),
  entry('Komax Service Győr', 'Győr', 'HU', 'service', []),
  entry('Komax AG', 'Dierikon', 'CH', 'subsidiary', ['brand-sirex']),
];
const ALL: LocationFilter = { country: null, type: null, brand: null, q: '' };
const names = (filter: Partial<LocationFilter>) => filterLocations(ENTRIES, { ...ALL, ...filter }).map((e) => e.name);

describe('matchesFilter / filterLocations', () => {
  it('keeps everything without a filter', () => {
    expect(names({})).toHaveLength(ENTRIES.length);
  });

  it('combines country and type: Germany + service is exactly the two German service sites', () => {
    expect(names({ country: 'DE', type: 'service' })).toEqual(['Komax Service Center Wuppertal', 'Komax Service Point München']);
  });

  it('filters by brand id', () => {
    expect(names({ brand: 'brand-sirex' })).toEqual(['Komax Service Point München', 'Komax AG']);
    expect(names({ brand: 'brand-sirex', country: 'CH' })).toEqual(['Komax AG']);
    expect(names({ brand: 'brand-unknown' })).toEqual([]);
  });

  it('searches name or city, case- and accent-insensitive', () => {
    expect(names({ q: 'zurich' })).toEqual(['Komax Service Center Zürich']);
    expect(names({ q: 'MUNCHEN' })).toEqual(['Komax Service Point München']);
    expect(names({ q: 'gyor' })).toEqual(['Komax Service Győr']);
    expect(names({ q: 'dierikon' })).toEqual(['Komax AG']);
    expect(names({ q: 'esslingen AM' })).toEqual(['Komax Deutschland GmbH']);
    expect(names({ q: 'wuppertal', type: 'subsidiary' })).toEqual([]);
  });

  it('compares country codes case-insensitively on the entry side', () => {
    expect(matchesFilter(entry('x', 'y', 'de', 'partner'), { ...ALL, country: 'DE' })).toBe(true);
  });
});

describe('normalizeText', () => {
  it('drops accents and case, turns ß into ss and squeezes spaces', () => {
    expect(normalizeText('  São  Paulo ')).toBe('sao paulo');
    expect(normalizeText('Ganghoferstraße')).toBe('ganghoferstrasse');
    expect(normalizeText('Timișoara')).toBe('timisoara');
  });
});

describe('parseFilter', () => {
  const parse = (query: string, def: string | null = null) => parseFilter(new URLSearchParams(query), def);

  it('reads the GET form, empty fields meaning "all"', () => {
    expect(parse('country=DE&type=service&brand=brand-lumeca&q=M%C3%BCnchen')).toEqual({ country: 'DE', type: 'service', brand: 'brand-lumeca', q: 'München' });
    expect(parse('country=all&type=&brand=&q=', 'CH')).toEqual(ALL);
    expect(parse('country=&type=&brand=&q=', 'CH')).toEqual(ALL);
  });

  it('takes the page\'s preselected country only when the request does not name one', () => {
    expect(parse('', 'CH').country).toBe('CH');
    expect(parse('type=service', 'CH')).toEqual({ ...ALL, country: 'CH', type: 'service' });
    expect(parse('country=de', 'CH').country).toBe('DE');
  });

  it('ignores values of the wrong shape instead of failing', () => {
    expect(parse('country=Germany&type=shop&brand=%3Cscript%3E')).toEqual(ALL);
    expect(parse(`q=${'x'.repeat(500)}`).q).toHaveLength(100);
  });
});

describe('filterQuery', () => {
  it('writes only what differs from the page\'s default, so the default view has a plain URL', () => {
    expect(filterQuery({ ...ALL, country: 'CH' }, 'CH')).toBe('');
    expect(filterQuery(ALL, null)).toBe('');
    expect(filterQuery(ALL, 'CH')).toBe('?country=all');
    expect(filterQuery({ country: 'DE', type: 'service', brand: null, q: 'mü' }, 'CH')).toBe('?country=DE&type=service&q=m%C3%BC');
  });

  it('round-trips through parseFilter', () => {
    const filter: LocationFilter = { country: null, type: 'partner', brand: 'brand-vexo', q: 'Porto Alegre' };
    expect(parseFilter(new URLSearchParams(filterQuery(filter, 'BR')), 'BR')).toEqual(filter);
  });
});

describe('hasFilterParams / filteredCacheControl', () => {
  it('asks for a short shared cache only for a filtered render of a page with a directory', () => {
    const modules = [{ type: 'richText' }, { type: 'locationsDirectory' }];
    expect(hasFilterParams(new URLSearchParams('utm=1'))).toBe(false);
    expect(filteredCacheControl(modules, new URLSearchParams('country=DE'))).toBe('public, max-age=60');
    expect(filteredCacheControl(modules, new URLSearchParams(''))).toBeNull();
    expect(filteredCacheControl([{ type: 'richText' }], new URLSearchParams('type=service'))).toBeNull();
  });
});
