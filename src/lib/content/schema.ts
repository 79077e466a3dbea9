import * as v from 'valibot';
import type { Link } from '../../site/navigation-types.ts';
import { INVESTOR_MODULE_SCHEMAS } from './investor-schema.ts';

/** valibot schemas for the raw content-hub answers (the boundary; map.ts turns them into domain types). */

const str = v.string();
const nstr = v.nullish(v.string());

export const LocalizationSchema = v.object({ locale: str, displayName: str });

export const AssetSchema = v.object({ url: str, mimeType: str, alternativeText: nstr });

export const RawSystemDataSchema = v.object({
  systemData: v.object({
    contentLocales: v.optional(v.array(str), []),
    countries: v.array(v.object({
      countryCode: str,
      hidden: v.boolean(),
      supportedLanguages: v.array(str),
      defaultLanguage: str,
      defaultMeasurementSystem: v.picklist(['Metric', 'Imperial']),
      sortIndex: v.number(),
      localizations: v.array(LocalizationSchema),
    })),
    languages: v.array(v.object({
      languageCode: str,
      defaultCountry: str,
      standard: v.boolean(),
      localizations: v.array(LocalizationSchema),
    })),
    sites: v.array(v.object({
      id: str,
      name: str,
      slug: str,
      isMain: v.boolean(),
      internationalOnly: v.boolean(),
      hideSideButtons: v.boolean(),
      enableCutFont: v.boolean(),
      theme: str,
      mainSiteOnly: v.boolean(),
      headerNavigation: nstr,
      footerNavigation: nstr,
      addLanguages: v.array(str),
      dropLanguages: v.array(str),
      defaultLanguage: nstr,
      domains: v.array(v.object({ host: str, slug: nstr })),
    })),
    brands: v.array(v.object({ id: str, name: str, pimId: str, theme: str, image: v.nullish(AssetSchema) })),
  }),
});

/** A link, turned into the domain Link at the boundary (page.site becomes page.siteId). */
export const RawLinkSchema = v.pipe(
  v.object({
    text: nstr,
    page: v.nullish(v.object({ id: str, path: str, site: nstr, title: nstr, countries: v.nullish(v.array(str)) })),
    path: nstr,
    url: nstr,
    productSlug: nstr,
    serviceSlug: nstr,
    pageParameters: v.nullish(v.record(str, str)),
    openInNewTab: v.optional(v.boolean(), false),
  }),
  v.transform((l): Link => ({
    text: l.text ?? null,
    page: l.page ? { id: l.page.id, path: l.page.path, siteId: l.page.site ?? null, title: l.page.title ?? null, countries: l.page.countries ?? [] } : null,
    path: l.path ?? null,
    url: l.url ?? null,
    productSlug: l.productSlug ?? null,
    serviceSlug: l.serviceSlug ?? null,
    pageParameters: l.pageParameters ?? null,
    openInNewTab: l.openInNewTab,
  })),
);
type RawLink = Link;

export interface RawMarketingSection {
  logo?: { url: string; alternativeText?: string | null } | null;
  backgroundColor?: string | null;
  link?: RawLink | null;
}

const RawMarketingSectionSchema = v.object({
  logo: v.nullish(v.object({ url: str, alternativeText: nstr })),
  backgroundColor: nstr,
  link: v.nullish(RawLinkSchema),
});

export interface RawNavItem {
  id: string;
  title: string;
  /** The locale the hub resolved the title from (a fallback's, when the asked locale has none). */
  locale?: string | null;
  countries: string[];
  hidden: boolean;
  hideSubItems: boolean;
  breadcrumbOverride?: string | null;
  link?: RawLink | null;
  marketingSection?: RawMarketingSection | null;
  items?: RawNavItem[];
}

export const RawNavItemSchema: v.GenericSchema<unknown, RawNavItem> = v.object({
  id: str,
  title: str,
  locale: nstr,
  countries: v.array(str),
  hidden: v.boolean(),
  hideSubItems: v.boolean(),
  breadcrumbOverride: nstr,
  link: v.nullish(RawLinkSchema),
  marketingSection: v.nullish(RawMarketingSectionSchema),
  items: v.optional(v.array(v.lazy(() => RawNavItemSchema))),
});

export const RawHeaderSchema = v.object({
  headerNavigation: v.nullable(v.object({
    id: str, theme: str, hidden: v.boolean(),
    homeItems: v.array(RawNavItemSchema),
    topItems: v.array(RawNavItemSchema),
  })),
});

export const RawFooterSchema = v.object({
  footerNavigation: v.nullable(v.object({
    id: str, theme: str,
    contactLink: v.nullish(RawLinkSchema),
    navigationSections: v.array(v.object({ id: str, title: str, locale: nstr, items: v.array(RawNavItemSchema) })),
  })),
});

// Content modules. Links inside modules arrive with page references already resolved.
const ModuleLink = v.nullish(RawLinkSchema);
const Paragraphs = v.array(str);

export const ModuleSchema = v.variant('type', [
  v.object({ type: v.literal('hero'), overline: nstr, title: str, text: nstr, image: v.nullish(AssetSchema), link: ModuleLink }),
  v.object({
    type: v.literal('richText'),
    title: nstr,
    blocks: v.array(v.variant('kind', [
      v.object({ kind: v.literal('heading'), text: str }),
      v.object({ kind: v.literal('paragraph'), text: str }),
      v.object({ kind: v.literal('list'), items: v.array(str) }),
    ])),
  }),
  v.object({
    type: v.literal('imageText'), title: nstr, text: v.union([Paragraphs, v.pipe(str, v.transform((s) => [s]))]),
    image: v.nullish(AssetSchema), imagePosition: v.optional(v.picklist(['left', 'right']), 'right'), link: ModuleLink,
  }),
  v.object({
    type: v.literal('teaserGrid'), title: nstr,
    items: v.array(v.object({ title: str, text: nstr, image: v.nullish(AssetSchema), link: ModuleLink })),
  }),
  v.object({ type: v.literal('callToAction'), title: str, text: nstr, link: ModuleLink }),
  v.object({ type: v.literal('video'), title: nstr, url: str, poster: v.nullish(AssetSchema), caption: nstr }),
  /** Text with a square image beside it (asset preset AsideSquare 960×960). */
  v.object({
    type: v.literal('asideImage'), title: nstr, text: v.union([Paragraphs, v.pipe(str, v.transform((s) => [s]))]),
    image: v.nullish(AssetSchema), imagePosition: v.optional(v.picklist(['left', 'right']), 'right'), link: ModuleLink,
  }),
  /** Text with a video beside it (asset preset AsideVideo 960×540 for its poster); the video opens where it is hosted. */
  v.object({
    type: v.literal('asideVideo'), title: nstr, text: v.union([Paragraphs, v.pipe(str, v.transform((s) => [s]))]),
    url: str, poster: v.nullish(AssetSchema), caption: nstr, videoPosition: v.optional(v.picklist(['left', 'right']), 'right'), link: ModuleLink,
  }),
  v.object({ type: v.literal('accordion'), title: nstr, items: v.array(v.object({ title: str, text: str })) }),
  v.object({
    type: v.literal('downloads'), title: nstr,
    files: v.array(v.object({ slug: str, title: str, fileName: str, url: str, size: v.number(), locale: str })),
  }),
  v.object({ type: v.literal('quote'), text: str, author: str, role: nstr, image: v.nullish(AssetSchema) }),
  // Investor relations (issue 14): dividend policy … annual report, see investor-schema.ts.
  ...INVESTOR_MODULE_SCHEMAS,
  /** A request form editors place on a page; a whitepaper form names the file it delivers. */
  v.object({
    type: v.literal('form'), form: v.picklist(['openSource', 'serviceRequest', 'whitepaper', 'contact']), title: nstr, text: nstr,
    file: v.nullish(v.object({ slug: str, title: str, fileName: str, url: str, size: v.number(), locale: str })),
  }),
  /** The contacts and locations directory: its entries are a list of their own, loaded by the page loader. */
  v.object({ type: v.literal('locationsDirectory'), title: nstr, text: nstr }),
]);
export type RawModule = v.InferOutput<typeof ModuleSchema>;

/** A page of a parent chain, or an entry linking a file (see access.ts). */
const PageAccessSchema = v.object({ id: str, protection: v.number(), isPublished: v.boolean() });

export const RawPageSchema = v.object({
  id: str,
  site: nstr,
  mainSiteOnly: v.boolean(),
  slug: str,
  path: str,
  pageType: str,
  /** The kind of catalogue entry `injection` names (Product or Service); absent in older content. */
  type: v.nullish(str),
  cmsType: v.nullish(str),
  /** A product or service slug the page shows. */
  injection: v.nullish(str),
  branch: v.nullish(str),
  theme: str,
  countries: v.array(str),
  protection: v.picklist([0, 1, 2]),
  /** Parent chain, nearest first: a page below a protected page is protected too. */
  parents: v.optional(v.array(PageAccessSchema), []),
  languages: v.array(str),
  contentLanguage: str,
  title: str,
  description: nstr,
  // Validated module by module in map.ts, so one broken module does not take the page down.
  modules: v.array(v.unknown()),
  updatedAt: str,
  isPublished: v.boolean(),
});
export type RawPage = v.InferOutput<typeof RawPageSchema>;

export const PageByPathSchema = v.object({ pageByPath: v.nullable(RawPageSchema) });
export const PagesByIdSchema = v.object({ pagesById: v.array(RawPageSchema) });
export const PageLocationsByIdSchema = v.object({
  pagesById: v.array(v.object({ id: v.string(), site: v.nullable(v.string()), path: v.string(), countries: v.optional(v.array(v.string()), []) })),
  editorialEntriesById: v.array(v.object({ id: v.string(), type: v.picklist(['Story', 'MediaRelease', 'StoryContact']), slug: v.string() })),
});
export const PagesSchema = v.object({ pages: v.array(RawPageSchema) });

const RedirectSchema = v.object({ previousUrl: str, target: str });
export const SystemRedirectsSchema = v.object({ systemRedirects: v.array(RedirectSchema) });
export const AllSystemRedirectsSchema = v.object({ allSystemRedirects: v.array(RedirectSchema) });

export const FileSchema = v.object({
  file: v.nullable(v.object({
    slug: str, url: str, fileName: str, size: v.number(), locale: str,
    /** Every entry linking the file, with its parent chain: who may download it follows from these. */
    usedBy: v.array(v.object({ ...PageAccessSchema.entries, type: str, parents: v.array(PageAccessSchema) })),
  })),
});

export const PageProtectionSchema = v.object({
  pageProtection: v.nullable(v.object({ id: str, protection: v.picklist([0, 1, 2]), passwordHash: nstr, requiredRole: nstr })),
});
