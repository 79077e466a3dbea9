import { MEDIA_RELEASES_PATH, mediaReleasePath, STORIES_PATH, STORY_CONTACTS_PATH, storyContactPath, storyPath } from '../../site/paths.ts';
import { allMediaReleases, allStories, storyContacts } from '../../lib/content/cached.ts';
import { siteLanguages } from '../../site/locale.ts';
import { modulesText } from '../content-page/search-text.ts';
import type { RouteSource, SourcedRoute } from '../platform/route-source.ts';
import { loadMediaReleaseDetail, loadMediaReleaseList, loadStoryContact, loadStoryContacts, loadStoryDetail, loadStoryOverview } from './load.server.ts';
import { editorialOffered } from './model.ts';

const FIRST_PAGE = new URLSearchParams();
const EPOCH = new Date(0).toISOString();
const newest = (items: { publicationDate: string }[], fallback: string) => items[0]?.publicationDate ?? fallback;

/**
 * Stories and media releases of the main site, in every locale: the unfiltered first page of the
 * story overview and of the media release list (filtered and later pages are query strings and
 * render on demand), every story and media release, the contacts page and one page per contact.
 * Every route is built by its on-demand loader, so a route's fingerprint covers exactly the records
 * its page shows: editing one story re-renders its page, the lists it is on and its contacts' pages.
 */
export const editorialSource: RouteSource = {
  name: 'editorial',
  appliesTo: (site) => editorialOffered({ site }),
  async routes(ctx) {
    const [stories, contacts, releases] = await Promise.all([allStories(ctx.data, ctx.content), storyContacts(ctx.data, ctx.content), allMediaReleases(ctx.data, ctx.content)]);
    const languages = siteLanguages(ctx.site, ctx.system.languages);
    const routes: SourcedRoute[] = [];
    const add = (r: SourcedRoute | null) => { if (r) routes.push(r); };
    /** A targeted run's kept route: added as it is (true), or the route is built (false). */
    const keep = (path: string) => { const k = ctx.kept(path); if (k) routes.push(k); return !!k; };

    const overview = keep(STORIES_PATH) ? null : await ctx.build(STORIES_PATH, (lc, req) => loadStoryOverview(lc, req, FIRST_PAGE));
    if (overview?.model.kind === 'story-overview') {
      add({ pagePath: STORIES_PATH, ...overview, languages, updatedAt: newest(stories, EPOCH), keys: ['stories', ...overview.model.stories.map((s) => s.id)] });
    }
    for (const item of stories) {
      const path = storyPath(item.slug);
      if (keep(path)) continue;
      const { model, recordHashes } = await ctx.build(path, (lc, req) => loadStoryDetail(lc, req, item.slug));
      if (model.kind !== 'story-detail') continue;
      const s = model.story;
      add({ pagePath: path, model, recordHashes, languages: s.languages, updatedAt: s.publicationDate, keys: [s.id, s.slug], search: { title: s.title, description: s.leadText, body: modulesText(s.modules) } });
    }
    const contactsPage = keep(STORY_CONTACTS_PATH) ? null : await ctx.build(STORY_CONTACTS_PATH, loadStoryContacts);
    if (contactsPage) add({ pagePath: STORY_CONTACTS_PATH, ...contactsPage, languages, updatedAt: newest(stories, EPOCH), keys: ['story-contacts', ...contacts.map((c) => c.id)] });
    for (const contact of contacts) {
      const path = storyContactPath(contact.slug);
      if (keep(path)) continue;
      const { model, recordHashes } = await ctx.build(path, (lc, req) => loadStoryContact(lc, req, contact.slug));
      if (model.kind !== 'story-contact') continue;
      add({
        pagePath: path, model, recordHashes, languages, updatedAt: newest(model.stories, newest(stories, EPOCH)),
        keys: [contact.id, contact.slug, ...model.stories.map((s) => s.id)],
        search: { title: contact.name, description: contact.role ?? '', body: contact.bio ?? '' },
      });
    }
    const list = keep(MEDIA_RELEASES_PATH) ? null : await ctx.build(MEDIA_RELEASES_PATH, (lc, req) => loadMediaReleaseList(lc, req, FIRST_PAGE));
    if (list?.model.kind === 'media-release-list') {
      add({ pagePath: MEDIA_RELEASES_PATH, ...list, languages, updatedAt: newest(releases, EPOCH), keys: ['media-releases', ...list.model.releases.map((r) => r.id)] });
    }
    for (const item of releases) {
      const path = mediaReleasePath(item.slug);
      if (keep(path)) continue;
      const { model, recordHashes } = await ctx.build(path, (lc, req) => loadMediaReleaseDetail(lc, req, item.slug));
      if (model.kind !== 'media-release-detail') continue;
      const r = model.release;
      add({ pagePath: path, model, recordHashes, languages: r.languages, updatedAt: r.publicationDate, keys: [r.id, r.slug], search: { title: r.title, description: r.leadText, body: modulesText(r.modules) } });
    }
    return routes;
  },
};
