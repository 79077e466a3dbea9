// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import appAdapter from './integrations/app-adapter.ts';
import interactionDirective from './integrations/interaction/index.ts';
import { IMAGE_REMOTE_PATTERNS } from './src/server/image-params.ts';

// Site and locale are resolved per request from CMS data in src/middleware.ts, so Astro's own
// i18n routing (which bakes the locale list in at build) stays off.
export default defineConfig({
  output: 'server',
  // A separate output folder lets several checkouts or test runs build side by side.
  outDir: process.env.DIST_DIR ?? './dist',
  adapter: appAdapter(),
  integrations: [react(), interactionDirective()],
  session: false,
  trailingSlash: 'ignore',
  compressHTML: true,
  markdown: { syntaxHighlight: false },
  prefetch: { prefetchAll: true, defaultStrategy: 'hover' },
  build: { inlineStylesheets: 'never' },
  // Catalogue images come from the PIM (its emulator on loopback locally); its demo pictures are
  // SVGs, which sharp rasterizes to the webp/png presets of src/components/ui/image-presets.ts.
  // Our server checks every /_image query against the same patterns first (src/server/image-params.ts).
  image: {
    remotePatterns: IMAGE_REMOTE_PATTERNS,
    dangerouslyProcessSVG: true,
  },
  security: {
    checkOrigin: true,
    csp: {
      algorithm: 'SHA-256',
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
  },
});
