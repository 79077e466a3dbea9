import type { FooterNavigation, HeaderNavigation } from '../../site/navigation-types.ts';
import type { SystemData } from '../../site/types.ts';

/** Site chrome every page renders: header and footer navigation. */
export interface ChromeModel {
  header: HeaderNavigation | null;
  footer: FooterNavigation | null;
}

/**
 * What every rendered page is made from: a kind (which view renders it), the site chrome, and
 * the records of the page itself. The prerender fingerprints the records it was built from and
 * writes its page data (`payloadOf`) as `_payload.json`, so it must hold every record the page
 * shows and nothing protected.
 */
export interface PageModelBase extends ChromeModel {
  kind: string;
}

/**
 * The page data of a model, as `_payload.json` holds it: everything but the site chrome. The
 * header and footer navigation are the same for every page of a site × locale (about 24 KB of
 * JSON for the main site) and have their own call (`/api/site-navigation/public/{siteId}`), so
 * 10,000 payloads need not carry 10,000 copies of them.
 */
export function payloadOf(model: PageModelBase): Omit<PageModelBase, keyof ChromeModel> {
  const { header: _header, footer: _footer, ...data } = model;
  return data;
}

/** The 404 page: only the chrome of the site and locale the request could be made out in. */
export interface NotFoundModel extends ChromeModel {
  kind: 'not-found';
}

/** The 404 model over a chrome. */
export function notFoundModel(chrome: ChromeModel): NotFoundModel {
  return { kind: 'not-found', header: chrome.header, footer: chrome.footer };
}

/** Text of a page for the site search (built from public models only, never from protected pages). */
export interface SearchText {
  title: string;
  description: string;
  body: string;
}

/** What the prerender hands to a render through `locals.prerender`, so rendering does no I/O. */
export interface PrerenderLocals {
  system: SystemData;
  /** The model of the route being rendered (it becomes `_payload.json`). */
  model: PageModelBase;
  /** Release id of the build being written (embedded for release detection). */
  releaseId: string;
}

/**
 * The model the prerender handed over for this route, when it is one of the expected kinds: a
 * route file renders it instead of loading.
 */
export function presetModel<M extends PageModelBase>(prerender: PrerenderLocals | undefined, kinds: readonly M['kind'][]): M | undefined {
  const model = prerender?.model;
  return model && (kinds as readonly string[]).includes(model.kind) ? (model as M) : undefined;
}
