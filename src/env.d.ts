/// <reference types="astro/client" />

interface ImportMetaEnv {
  readonly APP_BUILD_ID: string;
}

declare namespace App {
  interface Locals {
    /** System data (countries, languages, sites), set by src/middleware.ts for every request. */
    system?: import('./site/types.ts').SystemData;
    /** Set by src/middleware.ts for every site page. */
    request?: import('./site/request.ts').RequestContext;
    /** True when the request resolved to no site page (rendered as the 404 page). */
    notFound?: boolean;
    uiLanguage?: import('./i18n/index.ts').UiLanguage;
    t?: import('i18next').TFunction;
    loaders?: import('./models/content-page.ts').Loaders;
    /** The site search, opened by src/server before it listens. */
    search?: import('./lib/search/index.ts').ServerSearchBackend;
    /** The release the server currently serves (given by src/server to on-demand renders). */
    releaseId?: string;
    /** The error the error page (src/pages/500.astro) is rendered for, set by src/middleware.ts. */
    error?: unknown;
    /** Given by scripts/prerender.ts: the records to render from, so rendering does no I/O. */
    prerender?: import('./models/prerender.ts').PrerenderLocals;
  }
}
