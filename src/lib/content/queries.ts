/** GraphQL documents for the content hub, built from shared fragments. */

const LINK = /* GraphQL */ `
  fragment LinkFields on Link {
    text
    page { id path site countries }
    path
    url
    productSlug
    serviceSlug
    pageParameters
    openInNewTab
  }
`;

// Navigation is a tree; three levels are what the header and footer render. Only top-level items
// have a marketing section (their mega menu).
const NAV_ITEM = /* GraphQL */ `
  fragment NavItemFields on NavigationItem {
    id title locale countries hidden hideSubItems breadcrumbOverride
    link { ...LinkFields }
  }
  fragment NavItemTree on NavigationItem {
    ...NavItemFields
    marketingSection { logo { url alternativeText } backgroundColor link { ...LinkFields } }
    items { ...NavItemFields items { ...NavItemFields items { ...NavItemFields } } }
  }
`;

const PAGE = /* GraphQL */ `
  fragment PageFields on Page {
    id site mainSiteOnly slug path pageType type cmsType injection branch theme countries protection languages
    parents { id protection isPublished }
    contentLanguage title description modules updatedAt isPublished
  }
`;

export const SYSTEM_DATA = /* GraphQL */ `
  query SystemData {
    systemData {
      contentLocales
      countries { countryCode hidden supportedLanguages defaultLanguage defaultMeasurementSystem sortIndex localizations { locale displayName } }
      languages { languageCode defaultCountry standard localizations { locale displayName } }
      sites {
        id name slug isMain internationalOnly hideSideButtons enableCutFont theme mainSiteOnly
        headerNavigation footerNavigation addLanguages dropLanguages defaultLanguage
        domains { host slug }
      }
      brands { id name pimId theme image { url mimeType alternativeText } }
    }
  }
`;

export const HEADER_NAVIGATION = /* GraphQL */ `
  ${LINK}
  ${NAV_ITEM}
  query HeaderNavigation($id: ID!, $stage: Stage!) {
    headerNavigation(id: $id, stage: $stage) {
      id theme hidden
      homeItems { ...NavItemTree }
      topItems { ...NavItemTree }
    }
  }
`;

export const FOOTER_NAVIGATION = /* GraphQL */ `
  ${LINK}
  ${NAV_ITEM}
  query FooterNavigation($id: ID!, $stage: Stage!) {
    footerNavigation(id: $id, stage: $stage) {
      id theme
      contactLink { ...LinkFields }
      navigationSections { id title locale items { ...NavItemTree } }
    }
  }
`;

export const PAGE_BY_PATH = /* GraphQL */ `
  ${PAGE}
  query PageByPath($site: ID!, $path: String!, $stage: Stage!) {
    pageByPath(site: $site, path: $path, stage: $stage) { ...PageFields }
  }
`;

export const PAGES_BY_ID = /* GraphQL */ `
  ${PAGE}
  query PagesById($ids: [ID!]!, $stage: Stage!) {
    pagesById(ids: $ids, stage: $stage) { ...PageFields }
  }
`;

/**
 * Where pages of any of the four page types live, by id (spec §7 "pages by id across four page
 * types"): content pages, and the editorial entries that are pages of their own (stories, media
 * releases, story contacts). One request; only what a URL needs.
 */
export const PAGE_LOCATIONS_BY_ID = /* GraphQL */ `
  query PageLocationsById($ids: [ID!]!, $stage: Stage!) {
    pagesById(ids: $ids, stage: $stage) { id site path countries }
    editorialEntriesById(ids: $ids, stage: $stage) { id type slug }
  }
`;

export const PAGES = /* GraphQL */ `
  ${PAGE}
  query Pages($site: ID, $stage: Stage!) {
    pages(site: $site, stage: $stage) { ...PageFields }
  }
`;

export const SYSTEM_REDIRECTS = /* GraphQL */ `
  query SystemRedirects($previousUrls: [String!]!) {
    systemRedirects(previousUrls: $previousUrls) { previousUrl target }
  }
`;

export const ALL_SYSTEM_REDIRECTS = /* GraphQL */ `
  query AllSystemRedirects {
    allSystemRedirects { previousUrl target }
  }
`;

/** Server only: the hash or role behind a page's protection (never part of a page answer). */
export const PAGE_PROTECTION = /* GraphQL */ `
  query PageProtection($id: ID!, $stage: Stage!) {
    pageProtection(id: $id, stage: $stage) { id protection passwordHash requiredRole }
  }
`;

export const FILE = /* GraphQL */ `
  query File($slug: String!, $locale: String) {
    file(slug: $slug, locale: $locale) {
      slug url fileName size locale
      usedBy { id type protection isPublished parents { id protection isPublished } }
    }
  }
`;
