/** GraphQL documents for the editorial content of the content hub: stories, media releases, news feed. */

const ASSET = /* GraphQL */ `
  fragment EditorialAsset on Asset { url mimeType alternativeText }
`;

const CATEGORY = /* GraphQL */ `
  fragment StoryCategoryFields on StoryCategory { id slug name storyCount }
`;

const CONTACT = /* GraphQL */ `
  fragment StoryContactFields on StoryContact {
    id slug name role bio email
    image { ...EditorialAsset }
  }
`;

const STORY_ITEM = /* GraphQL */ `
  ${ASSET}
  ${CATEGORY}
  ${CONTACT}
  fragment StoryListItemFields on StoryListItem {
    id slug publicationDate title leadText contentLanguage
    teaserImage { ...EditorialAsset }
    category { ...StoryCategoryFields }
    storyContacts { ...StoryContactFields }
  }
`;

const MEDIA_RELEASE_ITEM = /* GraphQL */ `
  fragment MediaReleaseItemFields on MediaRelease { id slug publicationDate title leadText adhoc contentLanguage }
`;

export const STORIES = /* GraphQL */ `
  ${STORY_ITEM}
  query Stories($category: String, $first: Int!, $skip: Int!, $stage: Stage!) {
    stories(category: $category, first: $first, skip: $skip, stage: $stage) {
      total
      items { ...StoryListItemFields }
    }
  }
`;

export const STORY = /* GraphQL */ `
  ${ASSET}
  ${CATEGORY}
  ${CONTACT}
  query Story($slug: String!, $stage: Stage!) {
    story(slug: $slug, stage: $stage) {
      id slug publicationDate title leadText modules productSlugs languages contentLanguage
      teaserImage { ...EditorialAsset }
      category { ...StoryCategoryFields }
      storyContacts { ...StoryContactFields }
    }
  }
`;

export const STORY_CATEGORIES = /* GraphQL */ `
  ${CATEGORY}
  query StoryCategories {
    storyCategories { ...StoryCategoryFields }
  }
`;

export const STORY_CONTACTS = /* GraphQL */ `
  ${ASSET}
  ${CONTACT}
  query StoryContacts {
    storyContacts { ...StoryContactFields }
  }
`;

export const STORY_CONTACT = /* GraphQL */ `
  ${ASSET}
  ${CONTACT}
  query StoryContact($slug: String!) {
    storyContact(slug: $slug) { ...StoryContactFields }
  }
`;

export const STORIES_BY_CONTACT = /* GraphQL */ `
  ${STORY_ITEM}
  query StoriesByContact($slug: String!, $stage: Stage!) {
    storiesByContact(slug: $slug, stage: $stage) { ...StoryListItemFields }
  }
`;

export const RELATED_STORIES = /* GraphQL */ `
  ${STORY_ITEM}
  query RelatedStories($productSlug: String!, $first: Int!, $stage: Stage!) {
    relatedStories(productSlug: $productSlug, first: $first, stage: $stage) { ...StoryListItemFields }
  }
`;

export const RELATED_STORIES_BY_PRODUCTS = /* GraphQL */ `
  ${STORY_ITEM}
  query RelatedStoriesByProducts($productSlugs: [String!]!, $first: Int!, $stage: Stage!) {
    relatedStoriesByProducts(productSlugs: $productSlugs, first: $first, stage: $stage) { productSlug stories { ...StoryListItemFields } }
  }
`;

export const MEDIA_RELEASES = /* GraphQL */ `
  ${MEDIA_RELEASE_ITEM}
  query MediaReleases($first: Int!, $skip: Int!, $stage: Stage!) {
    mediaReleases(first: $first, skip: $skip, stage: $stage) {
      total
      items { ...MediaReleaseItemFields }
    }
  }
`;

export const MEDIA_RELEASE = /* GraphQL */ `
  ${MEDIA_RELEASE_ITEM}
  query MediaRelease($slug: String!, $stage: Stage!) {
    mediaRelease(slug: $slug, stage: $stage) { ...MediaReleaseItemFields modules languages contentLanguage }
  }
`;

export const NEWS_FEED = /* GraphQL */ `
  ${ASSET}
  query NewsFeed($first: Int!, $after: String) {
    newsFeed(first: $first, after: $after) {
      edges {
        cursor
        node {
          id title text publicationDate
          image { ...EditorialAsset }
          link {
            text path url productSlug serviceSlug pageParameters openInNewTab
            page { id path site title countries }
          }
        }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

export const SUBMIT_STORY_FEEDBACK = /* GraphQL */ `
  mutation SubmitStoryFeedback($storySlug: String!, $firstName: String!, $lastName: String!, $company: String!, $country: String!, $message: String!) {
    submitStoryFeedback(storySlug: $storySlug, firstName: $firstName, lastName: $lastName, company: $company, country: $country, message: $message) {
      ok id
    }
  }
`;
