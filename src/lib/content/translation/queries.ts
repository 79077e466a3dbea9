/** GraphQL documents of the editor area: translation jobs (spec §3 Translation target, §4) and the pages an editor lists. */

const PAGE_TRANSLATION_FIELDS = /* GraphQL */ `
  pageId sourceLanguage
  targetLanguages { id language translationState exportedAt importedAt }
`;

export const PAGE_TRANSLATION = /* GraphQL */ `
  query PageTranslation($pageId: ID!) {
    pageTranslation(pageId: $pageId) { ${PAGE_TRANSLATION_FIELDS} }
  }
`;

export const PAGE_TRANSLATIONS = /* GraphQL */ `
  query PageTranslations($pageIds: [ID!]!) {
    pageTranslations(pageIds: $pageIds) { ${PAGE_TRANSLATION_FIELDS} }
  }
`;

export const START_TRANSLATION = /* GraphQL */ `
  mutation StartTranslation($pageId: ID!) {
    startTranslation(pageId: $pageId) { ${PAGE_TRANSLATION_FIELDS} }
  }
`;

export const RESET_TRANSLATION = /* GraphQL */ `
  mutation ResetTranslation($pageId: ID!) {
    resetTranslation(pageId: $pageId) { ${PAGE_TRANSLATION_FIELDS} }
  }
`;

/** The pages of a site (global pages included) in a stage, with what the editor area shows of them. */
export const EDITOR_PAGES = /* GraphQL */ `
  query EditorPages($site: ID!, $stage: Stage!) {
    pages(site: $site, stage: $stage) {
      id site slug path title contentLanguage isPublished protection translationSourceLanguage translationTargetLanguages
    }
  }
`;
