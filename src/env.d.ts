/// <reference types="astro/client" />

declare namespace Astro {
  interface ClientDirectives {
    /** Hydrate on the first interaction inside the island (integrations/interaction/directive.ts). */
    'client:interaction'?: boolean | import('../integrations/interaction/directive.ts').InteractionOptions;
  }
}

interface ImportMetaEnv {
  readonly APP_BUILD_ID: string;
}

declare namespace App {
  interface Locals {
    /** Set by src/middleware.ts for every site page; read it with `pageContext(Astro.locals)`. */
    page?: import('./features/platform/context.ts').PageContext;
    /** Set by src/middleware.ts for every request; API routes read it with `apiContext(locals)`. */
    api?: import('./features/platform/context.ts').ApiContext;
    /** The site search, opened by src/server before it listens (the middleware hands it to `api`). */
    search?: import('./lib/search/index.ts').ServerSearchBackend;
    /** The release the server currently serves (given by src/server to on-demand renders). */
    releaseId?: string;
    /** The error the error page (src/pages/500.astro) is rendered for, set by src/middleware.ts. */
    error?: unknown;
    /** Given by the prerender: the records to render from, so rendering does no I/O. */
    prerender?: import('./features/platform/page-model.ts').PrerenderLocals;
  }
}
