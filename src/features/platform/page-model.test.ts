import { describe, expect, it } from 'vitest';
import { payloadOf, type PageModelBase } from './page-model.ts';

describe('payloadOf', () => {
  it('is the page data without the site chrome (the same for every page of a site and locale)', () => {
    const model = {
      kind: 'content-page',
      header: { theme: 'Default', hidden: false, homeItems: [], topItems: [{ title: 'Products' }] },
      footer: { theme: 'Default', contactLink: null, navigationSections: [] },
      page: { id: 'p1', title: 'About us', modules: [{ kind: 'text' }] },
    } as unknown as PageModelBase;
    const payload = payloadOf(model);
    expect(payload).toEqual({ kind: 'content-page', page: { id: 'p1', title: 'About us', modules: [{ kind: 'text' }] } });
    expect(JSON.stringify(payload)).not.toContain('Products');
    // The model itself is left as it is (the render still needs its chrome).
    expect(model.header).not.toBeNull();
  });
});
