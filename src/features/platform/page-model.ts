import type { FooterNavigation, HeaderNavigation } from '../../site/navigation-types.ts';
import type { SystemData } from '../../site/types.ts';

/** Site chrome every page renders: header and footer navigation. */
export interface ChromeModel {
  header: HeaderNavigation | null;
  footer: FooterNavigation | null;
}

/**
 * What every rendered page is made from: a kind (which view renders it), the site chrome, and
 * the records of the page itself. The prerender writes it as `_payload.json` and fingerprints the
 * records it was built from, so it must hold every record the page shows and nothing protected.
 */
export interface PageModelBase extends ChromeModel {
  kind: string;
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
