import { storyPath } from '../../site/paths.ts';
import { relatedStories } from '../../lib/content/cached.ts';
import type { ContentContext, StoryListItem } from '../../lib/content/index.ts';
import type { DataSource } from '../../lib/cache/data-cache.ts';
import { getLogger } from '../../lib/log/index.ts';
import type { RelatedStory } from './model.ts';

const log = getLogger('catalogue');

/** Stories shown on a product page. */
export const RELATED_STORIES = 3;

export const toRelatedStory = (s: StoryListItem): RelatedStory => ({
  slug: s.slug,
  title: s.title,
  leadText: s.leadText ?? null,
  imageUrl: s.teaserImage?.url ?? null,
  route: storyPath(s.slug),
});

/**
 * Stories from the content hub that mention a product, as teasers for its page. Not critical:
 * when the content hub fails, the product page shows without them (and the failure is logged).
 */
export async function relatedStoriesFor(data: DataSource, content: ContentContext, productSlug: string): Promise<RelatedStory[]> {
  try {
    return (await relatedStories(data, content, productSlug, RELATED_STORIES)).map(toRelatedStory);
  } catch (err) {
    log.warn(`related stories of ${productSlug}: ${(err as Error).message}`);
    return [];
  }
}
