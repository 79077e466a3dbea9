import { getRelatedStories, getRelatedStoriesByProducts, type ContentContext } from '../lib/content/index.ts';
import type { StoryListItem } from '../lib/content/editorial-types.ts';
import type { RelatedStory } from './catalogue.ts';
import { getLogger } from '../lib/log/index.ts';

const log = getLogger('catalogue');

const toTeaser = (s: StoryListItem): RelatedStory => ({
  slug: s.slug,
  title: s.title,
  leadText: s.leadText ?? null,
  imageUrl: s.teaserImage?.url ?? null,
  route: `/stories/${s.slug}`,
});

/**
 * Stories from the content hub that mention a product, as teasers for its page. Not critical:
 * when the content hub fails, the product page shows without them (and the failure is logged).
 */
export async function relatedStoriesFor(content: ContentContext, productSlug: string): Promise<RelatedStory[]> {
  try {
    return (await getRelatedStories(content, productSlug, 3)).map(toTeaser);
  } catch (err) {
    log.warn(`related stories of ${productSlug}: ${(err as Error).message}`);
    return [];
  }
}

/** The same for every product of a build at once (one call per language instead of one per product). */
export async function relatedStoriesForAll(content: ContentContext, productSlugs: string[]): Promise<Map<string, RelatedStory[]>> {
  try {
    const bySlug = await getRelatedStoriesByProducts(content, productSlugs, 3);
    return new Map([...bySlug].map(([slug, stories]) => [slug, stories.map(toTeaser)]));
  } catch (err) {
    log.warn(`related stories: ${(err as Error).message}`);
    return new Map();
  }
}
