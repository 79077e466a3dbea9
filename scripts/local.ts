// What npm start and npm run dev share: the emulators on loopback and the list of the demo sites.
import { startEmulators, type RunningEmulators } from '../emulators/start.ts';
import { contentConfig, type ServerEnv } from '../src/server/env.ts';
import { getSystemData } from '../src/lib/content/index.ts';
import { fallbackLanguage, makeLocale } from '../src/site/locale.ts';
import { localizedPath } from '../src/site/paths.ts';
import { siteHost } from '../src/site/resolve-site.ts';

export const LOCAL_REVALIDATE_SECRET = 'local-revalidate-secret-change-me';

/**
 * Starts the emulators (CONTENT_HUB_PORT, CATALOGUE_PORT) unless CONTENT_ENDPOINT is set, and
 * points CONTENT_ENDPOINT and (when unset) CATALOGUE_ENDPOINT at them; null when none started.
 */
export async function startLocalEmulators(): Promise<RunningEmulators | null> {
  if (process.env.CONTENT_ENDPOINT) return null;
  const ports = { contentHub: Number(process.env.CONTENT_HUB_PORT ?? 4100), catalogue: Number(process.env.CATALOGUE_PORT ?? 4101) };
  const emulators = await startEmulators({ ports, watch: true, quiet: !!process.env.CI });
  process.env.CONTENT_ENDPOINT = emulators.contentEndpoint;
  process.env.CATALOGUE_ENDPOINT ??= emulators.catalogueEndpoint;
  console.log(`emulators: content hub ${emulators.contentEndpoint}, catalogue ${emulators.catalogueEndpoint}`);
  return emulators;
}

/** Prints the home of each site (the sites come from the content hub, like everything else about sites) and the style guide. */
export async function printSiteAddresses(env: ServerEnv, port: number, hubDown: boolean): Promise<void> {
  const system = hubDown ? null : await getSystemData({ config: contentConfig(env), locales: ['en'], stage: 'PUBLISHED' }).catch(() => null);
  const sites = system?.sites ?? [];
  const width = Math.max('Style guide'.length, ...sites.map((s) => s.name.length));
  for (const site of sites) {
    const host = siteHost(site, 'localhost');
    const home = localizedPath(site, makeLocale(fallbackLanguage(site, system!.languages), null));
    console.log(`  ${site.name.padEnd(width)}  http://${host}:${port}${home}`);
  }
  console.log(`  ${'Style guide'.padEnd(width)}  http://localhost:${port}/style-guide`);
}
