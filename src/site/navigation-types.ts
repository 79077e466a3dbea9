/** Navigation and link shapes after mapping from the content hub (spec §3 Link, Navigation item). */

export interface PageRef {
  id: string;
  /** Site-relative path of the page, '' for a home page. */
  path: string;
  /** Site id, or null for a global page offered on every site. */
  siteId: string | null;
  /** The page's title, where the link needs it as fallback text (content modules); null in navigation. */
  title: string | null;
  /** The countries the page is offered in (empty: every country); elsewhere a link to it is a 404. */
  countries?: string[];
}

export interface Link {
  text: string | null;
  page: PageRef | null;
  path: string | null;
  url: string | null;
  productSlug: string | null;
  serviceSlug: string | null;
  pageParameters: Record<string, string> | null;
  openInNewTab: boolean;
}

/**
 * A navigation item's marketing section (spec §3), shown in its mega menu: a logo (304×52,
 * cropped) on a background colour, linked.
 */
export interface MarketingSection {
  logo: { url: string; alternativeText: string | null } | null;
  /** A colour name of the content hub (`Dark_White` when not set); see `MARKETING_BACKGROUNDS`. */
  backgroundColor: string;
  link: Link | null;
}

export interface NavItem {
  id: string;
  title: string;
  /** The language the title is written in (an English fallback on a Japanese page is "en"); null when unknown. */
  titleLanguage: string | null;
  link: Link | null;
  countries: string[];
  hidden: boolean;
  hideSubItems: boolean;
  breadcrumbOverride: string | null;
  items: NavItem[];
  /** Only top-level items have one (the mega menu); absent or null: none. */
  marketingSection?: MarketingSection | null;
}

export interface HeaderNavigation {
  homeItems: NavItem[];
  topItems: NavItem[];
  theme: string;
  hidden: boolean;
}

export interface FooterSection {
  id: string;
  title: string;
  /** The language the title is written in; null when unknown. */
  titleLanguage: string | null;
  items: NavItem[];
}

export interface FooterNavigation {
  navigationSections: FooterSection[];
  theme: string;
  contactLink: Link | null;
}
