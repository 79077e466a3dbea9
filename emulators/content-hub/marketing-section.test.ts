import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoContentHub, type DemoContentHub } from '../testing.ts';
import { getHeaderNavigation, getSystemData } from '../../src/lib/content/index.ts';
import { marketingLogo } from './marketing-logo.ts';

let hub: DemoContentHub;

beforeAll(async () => {
  hub = await startDemoContentHub();
});
afterAll(() => hub.close());

describe('the navigation\'s marketing sections (demo data, through the content client)', () => {
  it('answers a logo in the asked language, a colour (Dark_White by default) and a link', async () => {
    const ctx = { config: { endpoint: hub.url }, locales: ['de-CH', 'de', 'en'], stage: 'PUBLISHED' as const };
    const main = (await getSystemData(ctx)).sites.find((s) => s.isMain)!;
    const header = (await getHeaderNavigation(ctx, main))!;
    const solutions = header.topItems.find((i) => i.id === 'nav-main-header-solutions')!;
    const service = header.topItems.find((i) => i.id === 'nav-main-header-service-support')!;
    expect(solutions.marketingSection).toMatchObject({
      logo: { url: `${new URL(hub.url).origin}/assets/logos/komax-smart-factory.svg`, alternativeText: 'Komax Smart Factory: digitale Lösungen' },
      backgroundColor: 'Dark_White',
      link: { page: { path: '/solutions/digital-solutions' } },
    });
    expect(service.marketingSection).toMatchObject({ backgroundColor: 'Light_Blue', link: { page: { path: '/service-support/field-service' } } });
    expect(header.topItems.find((i) => i.id === 'nav-main-header-investors')!.marketingSection).toBeUndefined();

    const res = await fetch(solutions.marketingSection!.logo!.url);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(await res.text()).toContain('Smart Factory');
  });

  it('draws a light logo for dark colours, its name from the slug', () => {
    expect(marketingLogo('komax-service-360', 'light')).toMatch(/fill="#ffffff"[\s\S]*KOMAX<\/tspan><tspan dx="14">Service 360</);
    expect(marketingLogo('komax-a<b')).not.toContain('<b');
  });
});
