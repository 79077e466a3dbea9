import { describe, expect, it } from 'vitest';
import { editorialBreadcrumbs } from './breadcrumbs.ts';

const main = { slug: '' };
const deCh = { urlCode: 'de-ch' };

describe('editorialBreadcrumbs', () => {
  it('starts at home and leaves the last item unlinked', () => {
    expect(editorialBreadcrumbs(main, deCh, 'Startseite', [{ title: 'Stories', path: '/stories' }, { title: 'Carpatia', path: '/stories/carpatia' }])).toEqual([
      { title: 'Startseite', route: '/de-ch' },
      { title: 'Stories', route: '/de-ch/stories' },
      { title: 'Carpatia', route: null },
    ]);
  });

  it('gives an overview page home plus itself', () => {
    expect(editorialBreadcrumbs(main, { urlCode: 'en' }, 'Home', [{ title: 'Media releases' }])).toEqual([
      { title: 'Home', route: '/en' },
      { title: 'Media releases', route: null },
    ]);
  });
});
