// npm start: emulators on loopback, the app built when its sources changed, an incremental
// prerender, then the production server on http://localhost:4321.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './build-if-needed.ts';
import { startEmulators } from '../emulators/start.ts';
import { EnvError, parseServerEnv } from '../src/server/env.ts';
import { getSystemData } from '../src/lib/content/index.ts';
import { fallbackLanguage, makeLocale } from '../src/site/locale.ts';
import { localizedPath } from '../src/site/paths.ts';
import { siteHost } from '../src/site/resolve-site.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LOCAL_REVALIDATE_SECRET = 'local-revalidate-secret-change-me';

async function main() {
  // Readable log lines for a developer; the production server (npm run serve) writes JSON lines.
  process.env.LOG_FORMAT ??= 'pretty';
  const ports = { contentHub: Number(process.env.CONTENT_HUB_PORT ?? 4100), catalogue: Number(process.env.CATALOGUE_PORT ?? 4101) };
  let emulators: Awaited<ReturnType<typeof startEmulators>> | null = null;
  if (!process.env.CONTENT_ENDPOINT) {
    emulators = await startEmulators({ ports, watch: true, quiet: !!process.env.CI });
    process.env.CONTENT_ENDPOINT = emulators.contentEndpoint;
    process.env.CATALOGUE_ENDPOINT ??= emulators.catalogueEndpoint;
    console.log(`emulators: content hub ${emulators.contentEndpoint}, catalogue ${emulators.catalogueEndpoint}`);
  }
  process.env.REVALIDATE_SECRET ??= LOCAL_REVALIDATE_SECRET;
  const env = parseServerEnv(process.env);

  buildIfNeeded(root, { force: process.argv.includes('--build') });
  const { runPrerenderCli } = await import('./prerender.ts');
  await runPrerenderCli({ all: process.argv.includes('--all') });

  const { startServer } = await import('../src/server/main.ts');
  const server = await startServer();
  const port = env.PORT;
  console.log(`\nKomax web platform on ${server.url}`);
  // The sites and their homes come from the content hub, like everything else about sites.
  const system = await getSystemData({ config: { endpoint: env.CONTENT_ENDPOINT }, locales: ['en'], stage: 'PUBLISHED' });
  const width = Math.max(...system.sites.map((s) => s.name.length));
  for (const site of system.sites) {
    const host = siteHost(site, 'localhost');
    const home = localizedPath(site, makeLocale(fallbackLanguage(site, system.languages), null));
    console.log(`  ${site.name.padEnd(width)}  http://${host}:${port}${home}`);
  }
  console.log(`  ${'Style guide'.padEnd(width)}  http://localhost:${port}/style-guide`);
  if (process.env.REVALIDATE_SECRET === LOCAL_REVALIDATE_SECRET) console.log(`  revalidate: curl -X POST -H 'x-revalidate-secret: ${LOCAL_REVALIDATE_SECRET}' http://localhost:${port}/api/revalidate`);

  const stop = async () => {
    await server.close();
    await emulators?.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err instanceof EnvError ? err.message : err);
  process.exit(1);
});
