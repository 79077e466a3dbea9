// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import appAdapter from './integrations/app-adapter.ts';
import compressAssets from './integrations/compress-assets.ts';
import interactionDirective from './integrations/interaction/index.ts';
import { readFileSync } from 'node:fs';
import { IMAGE_REMOTE_PATTERNS } from './src/server/images/image-params.ts';
import { styleHash, themeStyle } from './src/components/inline-style.ts';
import { THEMES, themeClass } from './src/site/themes.ts';

/** Bytes (raw) up to which a built stylesheet is inlined into the pages that use it. */
const CSS_INLINE_LIMIT = 24 * 1024;

/**
 * The CSP hashes of the inline theme styles (Default.astro inlines the one of the page's theme):
 * listed here because a layout cannot add a hash to an on-demand page's policy header. The
 * prerender keeps only the one a page contains.
 */
const THEME_STYLE_HASHES = THEMES.map((theme) => themeStyle(readFileSync(new URL('./src/styles/themes.css', import.meta.url), 'utf8'), themeClass(theme)))
  .filter((css) => css !== null)
  .map(styleHash);

/** The language banner's inline style (LanguageBanner.astro, only on pages shown in a fallback language): its hash, for the same reason. */
const BANNER_STYLE_HASH = styleHash(readFileSync(new URL('./src/components/language-banner.css', import.meta.url), 'utf8'));

// Site and locale are resolved per request from CMS data in src/middleware.ts, so Astro's own
// i18n routing (which bakes the locale list in at build) stays off.
export default defineConfig({
  output: 'server',
  // A separate output folder lets several checkouts or test runs build side by side.
  outDir: process.env.DIST_DIR ?? './dist',
  adapter: appAdapter(),
  integrations: [react(), interactionDirective(), compressAssets()],
  session: false,
  trailingSlash: 'ignore',
  compressHTML: true,
  markdown: { syntaxHighlight: false },
  prefetch: { prefetchAll: true, defaultStrategy: 'hover' },
  // A page's stylesheets are inlined into its HTML (with their CSP hashes), so the first round trip
  // (HTML + render-blocking CSS) is one response: every page's CSS is a few KiB gzipped. A sheet over
  // CSS_INLINE_LIMIT would stay a cached <link> (see vite.build.assetsInlineLimit below).
  build: { inlineStylesheets: 'auto' },
  // Catalogue images come from the PIM (its emulator on loopback locally); its demo pictures are
  // SVGs, which sharp rasterizes to the webp/png presets of src/components/ui/image-presets.ts.
  // Our server checks every /_image query against the same patterns first (src/server/images/image-params.ts).
  image: {
    remotePatterns: IMAGE_REMOTE_PATTERNS,
    dangerouslyProcessSVG: true,
  },
  security: {
    checkOrigin: true,
    csp: {
      algorithm: 'SHA-256',
      styleDirective: { hashes: [...THEME_STYLE_HASHES, BANNER_STYLE_HASH] },
      directives: [
        "default-src 'self'",
        "img-src 'self' data: http://127.0.0.1:* http://localhost:*",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ],
    },
  },
  vite: {
    server: { host: '127.0.0.1' },
    // Astro asks this for each stylesheet when inlineStylesheets is 'auto' and for each page script.
    // Page scripts are never inlined: as module files they are cached across the pages of a visit
    // and add nothing to each page's first round trip (nor a CSP hash). Other assets keep Vite's 4 KiB.
    build: {
      assetsInlineLimit: (file, content) => (file.endsWith('.css') ? content.length <= CSS_INLINE_LIMIT : file.endsWith('.js') ? false : undefined),
    },
  },
});
