import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import * as v from 'valibot';
import type { IdentityConfig, Services } from '../../features/platform/context.ts';
import type { SearchConfig } from '../../lib/search/index.ts';
import type { TicketingConfig } from '../../lib/ticketing/types.ts';
import { DEFAULT_LOG_FORMAT, DEFAULT_LOG_LEVEL, LOG_FORMATS, LOG_LEVEL_HINT, LOG_LEVELS, parseLogLevel } from '../../lib/log/index.ts';
import type { GraphQLServiceConfig } from '../../lib/graphql/query.ts';
import type { UpstreamTimeouts } from '../../lib/http/timeouts.ts';
import { isPasswordHash } from '../../lib/crypto/password.ts';
import { processSharedState } from './shared-state.ts';
import { parseTrustProxy, TRUST_PROXY_MESSAGE } from '../http/client-address.ts';

const Url = (name: string) => v.pipe(v.string(), v.url(`${name} must be an absolute URL`));
const bytesMessage = (name: string) => `${name} must be a whole number of bytes, at least 1048576 (1 MiB)`;
const Bytes = (name: string) => v.pipe(v.string(), v.regex(/^\d{1,15}$/, bytesMessage(name)), v.transform(Number), v.minValue(1024 * 1024, bytesMessage(name)));
const INTROSPECTION_CACHE_MESSAGE = 'IDENTITY_INTROSPECTION_CACHE_SECONDS must be a whole number of seconds from 0 to 30';
const RENDER_THREADS_MESSAGE = 'RENDER_THREADS must be a whole number of threads from 0 to 32 (0 renders on the serving thread)';
const REDIS_URL_MESSAGE = 'REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://redis.internal:6379';
const Port = v.pipe(v.string(), v.transform(Number), v.integer('PORT must be a whole number'), v.minValue(1), v.maxValue(65535));
const Millis = (name: string) => v.pipe(
  v.string(), v.transform(Number),
  v.integer(`${name} must be a whole number of milliseconds`),
  v.minValue(50, `${name} must be between 50 and 120000 ms`), v.maxValue(120_000, `${name} must be between 50 and 120000 ms`),
);

/** Render threads by default: every core but the serving thread's, at least one, at most four (each holds a copy of the App). */
export function defaultRenderThreads(cores = availableParallelism()): number {
  return Math.min(4, Math.max(1, cores - 1));
}

/** The server's environment: every variable, its default, and what a malformed value gets told. */
export const ServerEnvSchema = v.object({
  CONTENT_ENDPOINT: v.optional(Url('CONTENT_ENDPOINT'), 'http://127.0.0.1:4100/graphql'),
  CATALOGUE_ENDPOINT: v.optional(Url('CATALOGUE_ENDPOINT'), 'http://127.0.0.1:4101/graphql'),
  LOG_LEVEL: v.optional(v.pipe(v.string(), v.transform((s: string) => parseLogLevel(s)), v.picklist(LOG_LEVELS, `LOG_LEVEL must be ${LOG_LEVEL_HINT}`)), DEFAULT_LOG_LEVEL),
  LOG_FORMAT: v.optional(v.picklist(LOG_FORMATS, `LOG_FORMAT must be ${LOG_FORMATS.join(' or ')}`), DEFAULT_LOG_FORMAT),
  HOST: v.optional(v.string(), '127.0.0.1'),
  PORT: v.optional(Port, '4321'),
  PUBLIC_PORT: v.optional(v.string()),
  /** npm run start:edge: how many Node instances behind nginx (default: one per core). */
  WORKERS: v.optional(v.pipe(v.string(), v.transform(Number), v.integer('WORKERS must be a whole number'), v.minValue(1, 'WORKERS must be at least 1'), v.maxValue(64, 'WORKERS must be at most 64'))),
  /**
   * Proxies whose X-Forwarded-For names the client (its last entry), for the rate limits and
   * Astro.clientAddress: "loopback" (npm run start:edge sets it for its instances behind nginx) or
   * addresses and CIDR ranges. Unset: the socket's address, whatever a request's headers say.
   */
  TRUST_PROXY: v.optional(v.pipe(v.string(), v.check((s) => { try { parseTrustProxy(s); return true; } catch { return false; } }, TRUST_PROXY_MESSAGE))),
  /**
   * Behind the edge (npm run start:edge sets it): the file in which nginx's runner names the release
   * it serves; a revalidation answers once the edge serves the release it published.
   */
  EDGE_SERVING_FILE: v.optional(v.pipe(v.string(), v.minLength(1, 'EDGE_SERVING_FILE must name a file'))),
  /** npm run start:edge: the nginx to run (default: Debian's nginx-light, installed when missing). */
  NGINX_PATH: v.optional(v.pipe(v.string(), v.minLength(1, 'NGINX_PATH must name the nginx program'))),
  REVALIDATE_SECRET: v.optional(v.pipe(v.string(), v.minLength(16, 'REVALIDATE_SECRET must be at least 16 characters'))),
  COOKIE_CONSENT_SCRIPT_URL: v.optional(Url('COOKIE_CONSENT_SCRIPT_URL')),
  COOKIE_CONSENT_ID: v.optional(v.string()),
  MONITORING_SCRIPT_URL: v.optional(Url('MONITORING_SCRIPT_URL')),
  SEARCH_ENGINE: v.optional(v.picklist(['embedded', 'opensearch'], 'SEARCH_ENGINE must be embedded or opensearch'), 'embedded'),
  OPENSEARCH_URL: v.optional(Url('OPENSEARCH_URL')),
  OPENSEARCH_INDEX_PREFIX: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9_-]*$/, 'OPENSEARCH_INDEX_PREFIX must be lowercase letters, digits, - or _'))),
  SEARCH_INDEX_DIR: v.optional(v.string()),
  /** Bytes the embedded search indexes loaded by one instance may hold (least recently used ones are dropped past it). */
  SEARCH_MEMORY_BUDGET: v.optional(Bytes('SEARCH_MEMORY_BUDGET'), String(256 * 1024 ** 2)),
  IMAGE_CACHE_MAX_BYTES: v.optional(Bytes('IMAGE_CACHE_MAX_BYTES'), String(1024 ** 3)),
  /**
   * New image renders (/_image misses) one client address may start a minute; beyond, 429. A
   * visitor's page asks for a few; many clients behind one address (a test suite's browsers, an
   * office's proxy) may need more.
   */
  IMAGE_RENDERS_PER_CLIENT_MINUTE: v.optional(v.pipe(v.string(), v.transform(Number), v.integer('IMAGE_RENDERS_PER_CLIENT_MINUTE must be a whole number'), v.minValue(1, 'IMAGE_RENDERS_PER_CLIENT_MINUTE must be at least 1'), v.maxValue(100_000, 'IMAGE_RENDERS_PER_CLIENT_MINUTE must be at most 100000')), '120'),
  TAG_MANAGER_ID: v.optional(v.pipe(v.string(), v.regex(/^GTM-[A-Z0-9]+$/, 'TAG_MANAGER_ID must look like GTM-XXXXXXX'))),
  UPSTREAM_CONNECT_TIMEOUT_MS: v.optional(Millis('UPSTREAM_CONNECT_TIMEOUT_MS'), '2000'),
  UPSTREAM_TIMEOUT_MS: v.optional(Millis('UPSTREAM_TIMEOUT_MS'), '5000'),
  /** How long a visitor's upload (tickets proxy) may pause before it is stopped with 408. */
  UPLOAD_IDLE_TIMEOUT_MS: v.optional(Millis('UPLOAD_IDLE_TIMEOUT_MS'), '30000'),
  /** Which domain of each site the prerender writes for: its loopback domain (local) or its public one. */
  PRERENDER_HOSTS: v.optional(v.picklist(['local', 'public'], 'PRERENDER_HOSTS must be local or public'), 'local'),
  /** The build output folder, relative to the project (or absolute). */
  DIST_DIR: v.optional(v.string(), 'dist'),
  /** The OpenID Connect issuer of the customer area (Ping AIC realm alpha; locally the identity emulator). */
  IDENTITY_ISSUER: v.optional(Url('IDENTITY_ISSUER'), 'http://localhost:4102/am/oauth2/realms/root/realms/alpha'),
  /** The public client the browser signs in with (PKCE, no secret). */
  IDENTITY_CLIENT_ID: v.optional(v.pipe(v.string(), v.regex(/^[\w.-]{1,100}$/, 'IDENTITY_CLIENT_ID must be letters, digits, _ . or -')), 'kmx-web'),
  /** The audience our APIs require in an access token (`aud`). */
  IDENTITY_AUDIENCE: v.optional(v.pipe(v.string(), v.minLength(1, 'IDENTITY_AUDIENCE must not be empty')), 'kmx-web'),
  /** The confidential client our server asks the provider's introspection endpoint (RFC 7662) with. */
  IDENTITY_INTROSPECTION_CLIENT_ID: v.optional(v.pipe(v.string(), v.regex(/^[\w.-]{1,100}$/, 'IDENTITY_INTROSPECTION_CLIENT_ID must be letters, digits, _ . or -')), 'kmx-api'),
  /** Its secret; unset, every customer-area API answers 503 (a token is never accepted unchecked). */
  IDENTITY_INTROSPECTION_CLIENT_SECRET: v.optional(v.pipe(v.string(), v.minLength(16, 'IDENTITY_INTROSPECTION_CLIENT_SECRET must be at least 16 characters'))),
  /** How long a read reuses the provider's answer about a token: a revoked token stops working after at most this long. */
  IDENTITY_INTROSPECTION_CACHE_SECONDS: v.optional(v.pipe(
    v.string(), v.regex(/^\d{1,2}$/, INTROSPECTION_CACHE_MESSAGE), v.transform(Number), v.maxValue(30, INTROSPECTION_CACHE_MESSAGE),
  ), '15'),
  /** Identity management (ForgeRock IDM REST, `…/openidm`): profile, password, MFA, account deletion. */
  IDENTITY_MANAGEMENT_URL: v.optional(Url('IDENTITY_MANAGEMENT_URL'), 'http://localhost:4102/openidm'),
  /** The ticketing GraphQL endpoint; unset, ticketing calls go to CATALOGUE_ENDPOINT (see ticketingEndpoint). */
  TICKETING_ENDPOINT: v.optional(Url('TICKETING_ENDPOINT')),
  /** Seals the tickets proxy's short-lived download links; unset, a random secret per process (links then work only on the instance that made them). */
  TICKETING_LINK_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, 'TICKETING_LINK_SECRET must be at least 32 characters'))),
  /** The editor-area password as a scrypt hash (`npm run hash-password`); unset, the editor area is closed. */
  EDITOR_PASSWORD_HASH: v.optional(v.pipe(v.string(), v.check(isPasswordHash, 'EDITOR_PASSWORD_HASH must be a scrypt hash made by `npm run hash-password`'))),
  /** Signs protected-page grants; unset, a random secret per process (grants then work only on the instance that made them). */
  PAGE_GRANT_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, 'PAGE_GRANT_SECRET must be at least 32 characters'))),
  /**
   * Redis (or Valkey) holding what every instance must agree on: revoked editor sessions, used
   * handoff tokens, rate-limit counters, idempotency keys (src/server/boot/shared-state.ts), the
   * revalidation queue and its one writer, the "new release is live" signal (src/server/cluster/);
   * unset, this process's memory (one instance only).
   */
  REDIS_URL: v.optional(v.pipe(v.string(), v.url(REDIS_URL_MESSAGE), v.regex(/^rediss?:\/\/[^/?#]/i, REDIS_URL_MESSAGE))),
  /**
   * Threads that render on-demand pages beside the one serving files, search and APIs
   * (src/server/render-pool/); 0 renders on the serving thread itself. Default: the cores but one, at least 1, at most 4.
   */
  RENDER_THREADS: v.optional(v.pipe(
    v.string(), v.regex(/^\d{1,2}$/, RENDER_THREADS_MESSAGE), v.transform(Number), v.maxValue(32, RENDER_THREADS_MESSAGE),
  ), () => String(defaultRenderThreads())),
});
export type ServerEnv = v.InferOutput<typeof ServerEnvSchema>;

/**
 * The variables that change the HTML a page renders to (third-party script configuration). They
 * are part of every route's fingerprint, so changing one re-renders the static pages.
 */
export const RENDER_ENV_KEYS = ['COOKIE_CONSENT_SCRIPT_URL', 'COOKIE_CONSENT_ID', 'MONITORING_SCRIPT_URL', 'TAG_MANAGER_ID'] as const;

export function renderEnv(env: ServerEnv): string {
  return RENDER_ENV_KEYS.map((k) => `${k}=${env[k] ?? ''}`).join('\n');
}

/** How long calls to the content hub, the catalogue and the search engine may take. */
export function upstreamTimeouts(env: ServerEnv): Required<UpstreamTimeouts> {
  return { connectTimeoutMs: env.UPSTREAM_CONNECT_TIMEOUT_MS, timeoutMs: env.UPSTREAM_TIMEOUT_MS };
}

/** The content hub's config (endpoint, timeouts). */
export function contentConfig(env: ServerEnv): GraphQLServiceConfig {
  return { endpoint: env.CONTENT_ENDPOINT, ...upstreamTimeouts(env) };
}

/** The catalogue's config (endpoint, timeouts). */
export function catalogueConfig(env: ServerEnv): GraphQLServiceConfig {
  return { endpoint: env.CATALOGUE_ENDPOINT, ...upstreamTimeouts(env) };
}

/**
 * The ticketing GraphQL endpoint: TICKETING_ENDPOINT when set, else the product catalogue's endpoint
 * (spec §7: ticketing is "a GraphQL endpoint falling back to the public product-catalogue one").
 */
export function ticketingEndpoint(env: Pick<ServerEnv, 'TICKETING_ENDPOINT' | 'CATALOGUE_ENDPOINT'>): string {
  return env.TICKETING_ENDPOINT ?? env.CATALOGUE_ENDPOINT;
}

/**
 * A random secret of this process, the same on every thread: kept in the process environment,
 * which render threads (render-pool/) start with a copy of, so a link or grant made on one thread
 * is accepted on another. Never sent anywhere.
 */
function processSecret(name: string): string {
  return (process.env[name] ??= randomBytes(32).toString('hex'));
}
/** The download-link secret of this process when TICKETING_LINK_SECRET is unset (one per process, so links survive between requests). */
const PROCESS_LINK_SECRET = processSecret('KOMAX_PROCESS_LINK_SECRET');
/** The protected-page grant secret of this process when PAGE_GRANT_SECRET is unset. */
const PROCESS_GRANT_SECRET = processSecret('KOMAX_PROCESS_GRANT_SECRET');

/** The ticketing service's config: endpoint (with its fallback), debug level (the server's LOG_LEVEL), link secret, timeouts. */
export function ticketingConfig(env: ServerEnv): TicketingConfig {
  return {
    endpoint: ticketingEndpoint(env),
    debugLevel: env.LOG_LEVEL,
    linkSecret: env.TICKETING_LINK_SECRET ?? PROCESS_LINK_SECRET,
    timeouts: upstreamTimeouts(env),
    uploadIdleMs: Number(env.UPLOAD_IDLE_TIMEOUT_MS),
  };
}

/** The identity provider's config: issuer, public client, API audience, token introspection, identity management. */
export function identityConfig(env: ServerEnv): IdentityConfig {
  return {
    issuer: env.IDENTITY_ISSUER.replace(/\/+$/, ''),
    clientId: env.IDENTITY_CLIENT_ID,
    audience: env.IDENTITY_AUDIENCE,
    introspection: {
      clientId: env.IDENTITY_INTROSPECTION_CLIENT_ID,
      ...(env.IDENTITY_INTROSPECTION_CLIENT_SECRET ? { clientSecret: env.IDENTITY_INTROSPECTION_CLIENT_SECRET } : {}),
      cacheTtlMs: env.IDENTITY_INTROSPECTION_CACHE_SECONDS * 1000,
    },
    managementUrl: env.IDENTITY_MANAGEMENT_URL.replace(/\/+$/, ''),
    timeouts: upstreamTimeouts(env),
  };
}

/** The external services of this process, configured once from the environment. */
export function servicesFromEnv(env: ServerEnv): Services {
  return {
    content: contentConfig(env),
    catalogue: catalogueConfig(env),
    identity: identityConfig(env),
    ticketing: ticketingConfig(env),
    timeouts: upstreamTimeouts(env),
    ...(env.REVALIDATE_SECRET ? { revalidateSecret: env.REVALIDATE_SECRET } : {}),
    ...(env.EDITOR_PASSWORD_HASH ? { editorPasswordHash: env.EDITOR_PASSWORD_HASH } : {}),
    pageGrantSecret: env.PAGE_GRANT_SECRET ?? PROCESS_GRANT_SECRET,
    sharedState: processSharedState(env),
    thirdParty: {
      consentScriptUrl: env.COOKIE_CONSENT_SCRIPT_URL,
      consentId: env.COOKIE_CONSENT_ID,
      monitoringScriptUrl: env.MONITORING_SCRIPT_URL,
      tagManagerId: env.TAG_MANAGER_ID,
    },
  };
}

/** The site search's configuration: engine, index folder (default `<distDir>/search`), OpenSearch. */
export function searchConfig(env: ServerEnv, distDir: string): SearchConfig {
  return {
    engine: env.SEARCH_ENGINE,
    indexDir: env.SEARCH_INDEX_DIR || join(distDir, 'search'),
    memoryBudget: env.SEARCH_MEMORY_BUDGET,
    ...(env.OPENSEARCH_URL ? { opensearchUrl: env.OPENSEARCH_URL } : {}),
    ...(env.OPENSEARCH_INDEX_PREFIX ? { opensearchPrefix: env.OPENSEARCH_INDEX_PREFIX } : {}),
    timeouts: upstreamTimeouts(env),
  };
}

/** The build output folder of this environment (`DIST_DIR`, relative to `root`). */
export function distDirOf(env: ServerEnv, root: string): string {
  return resolve(root, env.DIST_DIR);
}

export class EnvError extends Error {
  override name = 'EnvError';
}

/** Parses the environment; throws an EnvError naming every variable that is missing or malformed. */
export function parseServerEnv(env: Record<string, string | undefined>): ServerEnv {
  const picked = Object.fromEntries(Object.keys(ServerEnvSchema.entries).filter((k) => env[k] !== undefined && env[k] !== '').map((k) => [k, env[k]]));
  const result = v.safeParse(ServerEnvSchema, picked);
  if (result.success && result.output.SEARCH_ENGINE === 'opensearch' && !result.output.OPENSEARCH_URL) {
    throw new EnvError('Invalid environment:\n- OPENSEARCH_URL: SEARCH_ENGINE=opensearch needs OPENSEARCH_URL');
  }
  if (result.success) return result.output;
  const lines = result.issues.map((i) => `- ${v.getDotPath(i) ?? 'environment'}: ${i.message}`);
  throw new EnvError(`Invalid environment:\n${lines.join('\n')}`);
}

let cached: ServerEnv | undefined;
/** The environment of this process, parsed once. */
export function serverEnv(): ServerEnv {
  cached ??= parseServerEnv(process.env);
  return cached;
}
