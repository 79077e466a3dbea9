// What npm start and npm run dev share: the emulators on loopback and the list of the demo sites.
import { resolve } from 'node:path';
import { FORMS_DATA_DIR, IDENTITY_DATA_DIR, IDENTITY_PORT, startEmulators, TICKETING_DATA_DIR, TICKETING_PORT, type RunningEmulators } from '../emulators/start.ts';
import { demoLogins } from '../emulators/identity/demo.ts';
import { contentConfig, type ServerEnv } from '../src/server/boot/env.ts';
import { getSystemData } from '../src/lib/content/index.ts';
import { fallbackLanguage, makeLocale } from '../src/site/locale.ts';
import { localizedPath } from '../src/site/paths.ts';
import { siteHost } from '../src/site/resolve-site.ts';
import { hashPasswordSync } from '../src/lib/crypto/password.ts';

export const LOCAL_REVALIDATE_SECRET = 'local-revalidate-secret-change-me';
/**
 * The editor-area password of local runs (npm start, npm run dev) when EDITOR_PASSWORD_HASH is
 * unset: a demo value, printed at start. Production configures only its scrypt hash.
 */
export const LOCAL_EDITOR_PASSWORD = 'Komax-Editor-2026';

/** Opens the editor area locally: hashes {@link LOCAL_EDITOR_PASSWORD} into EDITOR_PASSWORD_HASH unless one is configured; true when it did. */
export function useLocalEditorPassword(): boolean {
  if (process.env.EDITOR_PASSWORD_HASH) return false;
  process.env.EDITOR_PASSWORD_HASH = hashPasswordSync(LOCAL_EDITOR_PASSWORD);
  return true;
}

/** A positive whole number from an emulator-only variable, or the default. */
function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return value;
}

/**
 * Starts the emulators (CONTENT_HUB_PORT, CATALOGUE_PORT, IDENTITY_PORT, TICKETING_PORT) unless
 * CONTENT_ENDPOINT is set, and points CONTENT_ENDPOINT and (when unset) CATALOGUE_ENDPOINT,
 * IDENTITY_ISSUER (with the emulator's IDENTITY_INTROSPECTION_CLIENT_ID and _SECRET), IDENTITY_MANAGEMENT_URL
 * and TICKETING_ENDPOINT at them; null when none started.
 * The identity emulator lets the app at http://localhost:PORT (and PUBLIC_PORT) sign in and keeps its
 * users in IDENTITY_DATA_DIR; the ticketing emulator trusts its tokens and keeps its tickets and
 * attachments in TICKETING_DATA_DIR; the content hub stores form submissions in FORMS_DATA_DIR.
 */
export async function startLocalEmulators(): Promise<RunningEmulators | null> {
  if (process.env.CONTENT_ENDPOINT) return null;
  const ports = { contentHub: Number(process.env.CONTENT_HUB_PORT ?? 4100), catalogue: Number(process.env.CATALOGUE_PORT ?? 4101) };
  const appPorts = new Set([process.env.PORT || '4321', process.env.PUBLIC_PORT || process.env.PORT || '4321']);
  const emulators = await startEmulators({
    ports,
    identityPort: positiveInteger('IDENTITY_PORT', IDENTITY_PORT),
    appOrigins: [...appPorts].map((port) => `http://localhost:${port}`),
    identityDataDir: process.env.IDENTITY_DATA_DIR ? resolve(process.env.IDENTITY_DATA_DIR) : IDENTITY_DATA_DIR,
    identityAccessTokenTtl: positiveInteger('IDENTITY_ACCESS_TOKEN_TTL', 3600),
    ticketingPort: positiveInteger('TICKETING_PORT', TICKETING_PORT),
    ticketingDataDir: process.env.TICKETING_DATA_DIR ? resolve(process.env.TICKETING_DATA_DIR) : TICKETING_DATA_DIR,
    formsDataDir: process.env.FORMS_DATA_DIR ? resolve(process.env.FORMS_DATA_DIR) : FORMS_DATA_DIR,
    watch: true,
    quiet: !!process.env.CI,
  });
  process.env.CONTENT_ENDPOINT = emulators.contentEndpoint;
  process.env.CATALOGUE_ENDPOINT ??= emulators.catalogueEndpoint;
  // The emulator's introspection client only when the app checks tokens with the emulator (not with a configured tenant).
  if (!process.env.IDENTITY_ISSUER) {
    process.env.IDENTITY_INTROSPECTION_CLIENT_ID = emulators.identityIntrospection.clientId;
    process.env.IDENTITY_INTROSPECTION_CLIENT_SECRET = emulators.identityIntrospection.clientSecret;
  }
  process.env.IDENTITY_ISSUER ??= emulators.identityIssuer;
  process.env.IDENTITY_MANAGEMENT_URL ??= emulators.identityManagementUrl;
  process.env.TICKETING_ENDPOINT ??= emulators.ticketingEndpoint;
  console.log(`emulators: content hub ${emulators.contentEndpoint}, catalogue ${emulators.catalogueEndpoint}, identity ${emulators.identityIssuer}, ticketing ${emulators.ticketingEndpoint}`);
  if (!process.env.CI) {
    const { password, users } = demoLogins();
    console.log(`demo logins (password ${password}): ${users.join(', ')}`);
  }
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
