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
  query Stories($category: String, $first: Int!, $skip: Int!) {
    stories(category: $category, first: $first, skip: $skip) {
      total
      items { ...StoryListItemFields }
    }
  }
`;

export const STORY = /* GraphQL */ `
  ${ASSET}
  ${CATEGORY}
  ${CONTACT}
  query Story($slug: String!) {
    story(slug: $slug) {
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
  query StoriesByContact($slug: String!) {
    storiesByContact(slug: $slug) { ...StoryListItemFields }
  }
`;

export const RELATED_STORIES = /* GraphQL */ `
  ${STORY_ITEM}
  query RelatedStories($productSlug: String!, $first: Int!) {
    relatedStories(productSlug: $productSlug, first: $first) { ...StoryListItemFields }
  }
`;

export const RELATED_STORIES_BY_PRODUCTS = /* GraphQL */ `
  ${STORY_ITEM}
  query RelatedStoriesByProducts($productSlugs: [String!]!, $first: Int!) {
    relatedStoriesByProducts(productSlugs: $productSlugs, first: $first) { productSlug stories { ...StoryListItemFields } }
  }
`;

export const MEDIA_RELEASES = /* GraphQL */ `
  ${MEDIA_RELEASE_ITEM}
  query MediaReleases($first: Int!, $skip: Int!) {
    mediaReleases(first: $first, skip: $skip) {
      total
      items { ...MediaReleaseItemFields }
    }
  }
`;

export const MEDIA_RELEASE = /* GraphQL */ `
  ${MEDIA_RELEASE_ITEM}
  query MediaRelease($slug: String!) {
    mediaRelease(slug: $slug) { ...MediaReleaseItemFields modules languages contentLanguage }
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
            page { id path site title }
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
