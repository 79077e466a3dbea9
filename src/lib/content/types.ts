import type { ImageAsset } from '../../site/types.ts';
import type { RawModule } from './schema.ts';
import type { EntryAccess } from './access.ts';
import type { LocationEntry } from './locations/types.ts';

/** A content module as the page components render it (links already domain Links). */
export type ContentModule = Exclude<RawModule, { type: 'locationsDirectory' }> | LocationsDirectoryModule;
export type ModuleType = ContentModule['type'];
/** The investor-relations modules (issue 14): dividend policy, share distribution … annual report. */
export type InvestorModule = Extract<ContentModule, { type: 'dividendPolicy' | 'shareDistribution' | 'keyData' | 'sharePrice' | 'totalReturn' | 'shareholders' | 'financialCalendar' | 'annualFigures' | 'annualReport' }>;
export type InvestorModuleOf<T extends InvestorModule['type']> = Extract<InvestorModule, { type: T }>;

/** A content page (spec §3 Page), in the language it was resolved to. */
export interface Page {
  id: string;
  /** Null for a global page offered on every site. */
  siteId: string | null;
  mainSiteOnly: boolean;
  slug: string;
  /** Site-relative path, '' for a home page. */
  path: string;
  pageType: string;
  /**
   * What the page shows besides its modules (spec §3 `type` and `injection`): a product or a service
   * of the catalogue, by slug. Null for a page of modules only.
   */
  injection: PageInjection | null;
  /** The content model the entry is stored as (spec §3 `cmsType`): 'Page' for content pages. */
  cmsType: string;
  /** The industry the page addresses (spec §3 `branch`), e.g. 'automotive'; null for all. */
  branch: string | null;
  theme: string;
  countries: string[];
  /**
   * 0 none, 1 password, 2 CIAM role: the protection a visitor meets, i.e. the page's own or that
   * of its nearest protected ancestor (a child of a protected page is protected too).
   */
  protection: 0 | 1 | 2;
  /** Ids of the protected pages (this one and its ancestors) whose grants open this page. */
  protectedBy: string[];
  /** The page's own protection and its parent chain (access.ts `checkAccess` decides over it). */
  access: EntryAccess;
  /** Languages the page exists in. */
  languages: string[];
  contentLanguage: string;
  title: string;
  description: string | null;
  modules: ContentModule[];
  updatedAt: string;
  isPublished: boolean;
}

/** A catalogue entry a content page shows. */
export interface PageInjection {
  kind: 'product' | 'service';
  slug: string;
}

export interface SystemRedirect {
  previousUrl: string;
  target: string;
}

export type { ImageAsset };

/**
 * The locations directory module: the content hub's module (title, text) plus the directory's
 * entries, which the page loader adds (`null` until then: the hub's page does not carry them).
 */
export type LocationsDirectoryModule = Extract<RawModule, { type: 'locationsDirectory' }> & { locations: LocationEntry[] | null };
