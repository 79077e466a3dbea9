import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { compressTree } from '../src/lib/fs/compress.ts';

/**
 * After `astro build`: every compressible file of `dist/client` (scripts, styles, SVGs, JSON,
 * fonts without their own compression) gets `.br` (quality 11: once per build) and `.gz`
 * siblings, which the server sends to clients that accept them (src/server/http/app-server.ts).
 */
export default function compressAssets(): AstroIntegration {
  let clientDir: URL | null = null;
  return {
    name: 'komax:compress-assets',
    hooks: {
      'astro:config:done': ({ config }) => {
        clientDir = config.build.client;
      },
      'astro:build:done': async ({ logger }) => {
        if (!clientDir) return;
        const started = performance.now();
        const t = await compressTree(fileURLToPath(clientDir), { brotliQuality: 11, gzipLevel: 9 });
        logger.info(`${t.files} files compressed (${(t.bytes / 1024).toFixed(0)} KiB → ${(t.brBytes / 1024).toFixed(0)} KiB brotli) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      },
    },
  };
}
