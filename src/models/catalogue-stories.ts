import { getRelatedStories, type ContentContext } from '../lib/content/index.ts';
import type { RelatedStory } from './catalogue.ts';

/**
 * Stories from the content hub that mention a product, as teasers for its page. Not critical:
 * when the content hub fails, the product page shows without them (and the failure is logged).
 */
export async function relatedStoriesFor(content: ContentContext, productSlug: string): Promise<RelatedStory[]> {
  try {
    const stories = await getRelatedStories(content, productSlug, 3);
    return stories.map((s) => ({
      slug: s.slug,
      title: s.title,
      leadText: s.leadText ?? null,
      imageUrl: s.teaserImage?.url ?? null,
      route: `/stories/${s.slug}`,
    }));
  } catch (err) {
    console.warn(`[catalogue] related stories of ${productSlug}: ${(err as Error).message}`);
    return [];
  }
}
