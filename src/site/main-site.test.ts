import { describe, expect, it } from 'vitest';
import { mainSite } from './main-site.ts';
import type { Site } from './types.ts';

const site = (id: string, isMain: boolean) => ({ id, isMain }) as Site;

describe('mainSite', () => {
  it('is the site marked main, wherever it stands in the list', () => {
    expect(mainSite({ sites: [site('events', false), site('main', true), site('brand', false)] })?.id).toBe('main');
  });
  it('is undefined when no site is marked main (the caller picks its fallback)', () => {
    expect(mainSite({ sites: [site('events', false)] })).toBeUndefined();
  });
});
