import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startContentHub } from './content-hub/server.ts';
import { startCatalogue } from './catalogue/server.ts';
import { startIdentity } from './identity/server.ts';
import { startTicketing } from './ticketing/server.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const EMULATOR_PORTS: { contentHub: number; catalogue: number } = { contentHub: 4100, catalogue: 4101 };
/** The identity emulator's default port (IDENTITY_PORT). */
export const IDENTITY_PORT = 4102;
/** Where the identity emulator keeps its users and keys by default (git-ignored; delete it to reset). */
export const IDENTITY_DATA_DIR = join(here, '../.data/identity');
/** The ticketing emulator's default port (TICKETING_PORT). */
export const TICKETING_PORT = 4103;
/** Where the ticketing emulator keeps its tickets and attachments by default (git-ignored; delete it to reset). */
export const TICKETING_DATA_DIR = join(here, '../.data/ticketing');
/** Where the content hub keeps the form submissions by default (git-ignored; delete it to reset). */
export const FORMS_DATA_DIR = join(here, '../.data/forms');

export interface EmulatorOptions {
  ports?: Partial<typeof EMULATOR_PORTS>;
  /** Port of the identity emulator (default 4102). */
  identityPort?: number;
  /**
   * The app origins the identity emulator lets sign in (default http://localhost:4321); the
   * loopback hosts of the content data's other sites, on the same ports, may be returned to at logout.
   */
  appOrigins?: string[];
  /** The identity emulator's data folder (default .data/identity). */
  identityDataDir?: string;
  /** Access token lifetime in seconds (default 3600). */
  identityAccessTokenTtl?: number;
  /** Port of the ticketing emulator (default 4103). */
  ticketingPort?: number;
  /** The ticketing emulator's data folder (default .data/ticketing). */
  ticketingDataDir?: string;
  /** The content hub's forms data folder (default .data/forms). */
  formsDataDir?: string;
  /** The content hub's data folder (default the demo data, emulators/data/content): a test may serve a smaller copy. */
  contentDataDir?: string;
  /** The catalogue's data folder (default the demo data, emulators/data/catalogue). */
  catalogueDataDir?: string;
  watch?: boolean;
  quiet?: boolean;
}

export interface RunningEmulators {
  contentEndpoint: string;
  catalogueEndpoint: string;
  /** The OpenID Connect issuer (http://localhost:<port>/am/oauth2/realms/root/realms/alpha). */
  identityIssuer: string;
  /** Identity management REST (http://localhost:<port>/openidm). */
  identityManagementUrl: string;
  /** The client our server introspects access tokens with (IDENTITY_INTROSPECTION_CLIENT_ID / _SECRET). */
  identityIntrospection: { clientId: string; clientSecret: string };
  /** The ticketing GraphQL endpoint (http://127.0.0.1:<port>/graphql), trusting the identity emulator's tokens. */
  ticketingEndpoint: string;
  close(): Promise<void>;
}

/**
 * The origins of the loopback hosts of the sites in a content data folder (its system.json) on the
 * ports of the app origins: where a visitor who came from another site returns to at logout.
 * @example siteOriginsOf(['http://localhost:4321'], 'emulators/data/content') // ['http://localhost:4321', 'http://events.localhost:4321', …]
 */
export function siteOriginsOf(appOrigins: string[], contentDataDir: string): string[] {
  const system = JSON.parse(readFileSync(join(contentDataDir, 'system.json'), 'utf8')) as { sites?: { domains?: { host: string }[] }[] };
  const hosts = new Set((system.sites ?? []).flatMap((s) => (s.domains ?? []).map((d) => d.host.toLowerCase())).filter((h) => h === 'localhost' || h.endsWith('.localhost')));
  return appOrigins.flatMap((o) => {
    const app = new URL(o);
    return [...hosts].map((h) => `${app.protocol}//${h}${app.port ? `:${app.port}` : ''}`);
  });
}

/** Starts every emulator on loopback over the demo dataset. */
export async function startEmulators(opts: EmulatorOptions = {}): Promise<RunningEmulators> {
  const ports = { ...EMULATOR_PORTS, ...opts.ports };
  const appOrigins = opts.appOrigins ?? ['http://localhost:4321'];
  const contentDataDir = opts.contentDataDir ?? join(here, 'data/content');
  const [hub, catalogue, identity] = await Promise.all([
    startContentHub({ port: ports.contentHub, dataDir: contentDataDir, watch: opts.watch, quiet: opts.quiet, formsDataDir: opts.formsDataDir ?? FORMS_DATA_DIR }),
    startCatalogue({ port: ports.catalogue, dataDir: opts.catalogueDataDir ?? join(here, 'data/catalogue'), watch: opts.watch, quiet: opts.quiet }),
    startIdentity({
      port: opts.identityPort ?? IDENTITY_PORT,
      appOrigins,
      signOutOrigins: siteOriginsOf(appOrigins, contentDataDir),
      dataDir: opts.identityDataDir ?? IDENTITY_DATA_DIR,
      accessTokenTtl: opts.identityAccessTokenTtl,
      quiet: opts.quiet,
    }),
  ]);
  const stop = (server: import('node:http').Server) => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  // Ticketing trusts the identity emulator's tokens, so it starts once the issuer is known.
  const ticketing = await startTicketing({
    port: opts.ticketingPort ?? TICKETING_PORT,
    issuer: identity.issuer,
    dataDir: opts.ticketingDataDir ?? TICKETING_DATA_DIR,
    quiet: opts.quiet,
  }).catch(async (err: unknown) => {
    await Promise.all([stop(hub.server), stop(catalogue.server), identity.close()]);
    throw err;
  });
  return {
    contentEndpoint: hub.url,
    catalogueEndpoint: catalogue.url,
    identityIssuer: identity.issuer,
    identityManagementUrl: identity.managementUrl,
    identityIntrospection: identity.introspection,
    ticketingEndpoint: ticketing.url,
    close: async () => { await Promise.all([stop(hub.server), stop(catalogue.server), identity.close(), ticketing.close()]); },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const running = await startEmulators({ watch: true });
  console.log(`content hub  ${running.contentEndpoint}`);
  console.log(`catalogue    ${running.catalogueEndpoint}`);
  console.log(`identity     ${running.identityIssuer}`);
  console.log(`ticketing    ${running.ticketingEndpoint}`);
  const stop = async () => { await running.close(); process.exit(0); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
