// Test fixtures: the content hub and catalogue emulators over the demo data, and the identity
// emulator over the demo users, on free loopback ports.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCatalogue } from './catalogue/server.ts';
import { startContentHub } from './content-hub/server.ts';
import { demoLogins } from './identity/demo.ts';
import { signIn, type TokenSet } from './identity/login-flow.ts';
import { startIdentity } from './identity/server.ts';
import { startTicketing, type RunningTicketing } from './ticketing/server.ts';

const data = join(dirname(fileURLToPath(import.meta.url)), 'data');

export interface DemoServices {
  contentEndpoint: string;
  catalogueEndpoint: string;
  close(): Promise<void>;
}

const closeServer = (server: Server) => new Promise<void>((resolve) => {
  server.closeAllConnections();
  server.close(() => resolve());
});

export interface DemoContentHub {
  /** The GraphQL endpoint. */
  url: string;
  close(): Promise<void>;
}

/** Starts the content hub alone (quiet, port 0) over the demo data for a unit test; `close()` stops it. */
export async function startDemoContentHub(): Promise<DemoContentHub> {
  const hub = await startContentHub({ port: 0, dataDir: join(data, 'content'), quiet: true });
  return { url: hub.url, close: () => closeServer(hub.server) };
}

/** Starts both emulators (quiet, port 0) for a unit test; `close()` stops them. */
export async function startDemoServices(): Promise<DemoServices> {
  const [hub, catalogue] = await Promise.all([
    startContentHub({ port: 0, dataDir: join(data, 'content'), quiet: true }),
    startCatalogue({ port: 0, dataDir: join(data, 'catalogue'), quiet: true }),
  ]);
  return {
    contentEndpoint: hub.url,
    catalogueEndpoint: catalogue.url,
    close: async () => { await Promise.all([closeServer(hub.server), closeServer(catalogue.server)]); },
  };
}

export interface DemoIdentity {
  /** http://localhost:<port>/am/oauth2/realms/root/realms/alpha */
  issuer: string;
  /** http://localhost:<port>/openidm */
  managementUrl: string;
  /** http://localhost:<port> */
  origin: string;
  /** The data folder (a fresh temporary one unless given). */
  dataDir: string;
  /** The one password of every demo user. */
  password: string;
  /** The client our server introspects access tokens with. */
  introspection: { clientId: string; clientSecret: string };
  /** Signs in through the real login form (code + PKCE, no browser): the token response. */
  signIn(username: string, opts?: { password?: string; redirectUri?: string }): Promise<TokenSet>;
  /** Stops the emulator (and removes the data folder when it created it). */
  close(): Promise<void>;
}

/**
 * Starts the identity emulator (quiet, port 0) over the demo users in a fresh temporary data folder
 * (or `dataDir`), letting `appOrigin` (default http://localhost:4321) sign in, and the logout
 * return to it or to one of `signOutOrigins`.
 */
export async function startDemoIdentity(opts: { appOrigin?: string; signOutOrigins?: string[]; dataDir?: string; accessTokenTtl?: number } = {}): Promise<DemoIdentity> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'kmx-identity-'));
  const appOrigin = opts.appOrigin ?? 'http://localhost:4321';
  const identity = await startIdentity({ port: 0, appOrigins: [appOrigin], signOutOrigins: opts.signOutOrigins, dataDir, accessTokenTtl: opts.accessTokenTtl, quiet: true });
  const { password } = demoLogins();
  return {
    issuer: identity.issuer,
    managementUrl: identity.managementUrl,
    origin: identity.origin,
    dataDir,
    password,
    introspection: identity.introspection,
    signIn: (username, o = {}) => signIn({ issuer: identity.issuer, redirectUri: o.redirectUri ?? `${appOrigin}/en/callback`, username, password: o.password ?? password }),
    close: async () => {
      await identity.close();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export interface DemoTicketing {
  /** http://127.0.0.1:<port>/graphql */
  url: string;
  /** http://127.0.0.1:<port> (attachments at /attachments/{id}) */
  origin: string;
  /** The data folder (a fresh temporary one unless given). */
  dataDir: string;
  store: RunningTicketing['store'];
  /** Stops the emulator (and removes the data folder when it created it). */
  close(): Promise<void>;
}

/**
 * Starts the ticketing emulator (quiet, port 0) over the demo data in a fresh temporary data folder
 * (or `dataDir`: pass the same one again to test persistence), trusting tokens of `issuer`
 * (e.g. `startDemoIdentity().issuer`).
 */
export async function startDemoTicketing(opts: { issuer: string; dataDir?: string; log?: (line: string) => void }): Promise<DemoTicketing> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'kmx-ticketing-'));
  const ticketing = await startTicketing({ port: 0, issuer: opts.issuer, dataDir, quiet: !opts.log, log: opts.log });
  return {
    url: ticketing.url,
    origin: ticketing.origin,
    dataDir,
    store: ticketing.store,
    close: async () => {
      await ticketing.close();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export { graphqlMultipart, type UploadPart } from './ticketing/multipart-body.ts';
export type { TokenSet } from './identity/login-flow.ts';
