import { describe, expect, it } from 'vitest';
import { catalogueConfig, contentConfig, defaultRenderThreads, EnvError, parseServerEnv, searchConfig, servicesFromEnv, ticketingEndpoint } from './env.ts';

const errorOf = (env: Record<string, string | undefined>): EnvError => {
  try {
    parseServerEnv(env);
  } catch (err) {
    expect(err).toBeInstanceOf(EnvError);
    return err as EnvError;
  }
  throw new Error('expected parseServerEnv to throw');
};

describe('defaults', () => {
  it('fill in every variable that is not set', () => {
    expect(parseServerEnv({})).toEqual({
      CONTENT_ENDPOINT: 'http://127.0.0.1:4100/graphql',
      CATALOGUE_ENDPOINT: 'http://127.0.0.1:4101/graphql',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      HOST: '127.0.0.1',
      PORT: 4321,
      SEARCH_ENGINE: 'embedded',
      SEARCH_MEMORY_BUDGET: 268435456,
      IMAGE_CACHE_MAX_BYTES: 1073741824,
      IMAGE_RENDERS_PER_CLIENT_MINUTE: 120,
      UPSTREAM_CONNECT_TIMEOUT_MS: 2000,
      UPSTREAM_TIMEOUT_MS: 5000,
      UPLOAD_IDLE_TIMEOUT_MS: 30000,
      PRERENDER_HOSTS: 'local',
      DIST_DIR: 'dist',
      IDENTITY_ISSUER: 'http://localhost:4102/am/oauth2/realms/root/realms/alpha',
      IDENTITY_CLIENT_ID: 'kmx-web',
      IDENTITY_AUDIENCE: 'kmx-web',
      IDENTITY_INTROSPECTION_CLIENT_ID: 'kmx-api',
      IDENTITY_INTROSPECTION_CACHE_SECONDS: 15,
      IDENTITY_MANAGEMENT_URL: 'http://localhost:4102/openidm',
      RENDER_THREADS: defaultRenderThreads(),
    });
  });

  it('name a malformed identity variable', () => {
    expect(() => parseServerEnv({ IDENTITY_ISSUER: 'realm alpha', IDENTITY_CLIENT_ID: 'a b' })).toThrow(/IDENTITY_ISSUER must be an absolute URL[\s\S]*IDENTITY_CLIENT_ID must be letters/);
  });

  it('treat an empty value as not set', () => {
    expect(parseServerEnv({ PORT: '', LOG_LEVEL: '' })).toMatchObject({ PORT: 4321, LOG_LEVEL: 'warn' });
  });

  it('ignore variables the server does not use', () => {
    expect(parseServerEnv({ PATH: '/usr/bin', HOME: '/root' })).not.toHaveProperty('PATH');
  });
});

describe('valid values', () => {
  it('are taken over, the port as a number', () => {
    expect(parseServerEnv({
      CONTENT_ENDPOINT: 'https://content.example/graphql', LOG_LEVEL: 'debug', LOG_FORMAT: 'pretty', HOST: '0.0.0.0', PORT: '8080',
      REVALIDATE_SECRET: 's'.repeat(16), TAG_MANAGER_ID: 'GTM-AB12CD', MONITORING_SCRIPT_URL: 'https://mon.example/loader.js',
      IMAGE_CACHE_MAX_BYTES: '5368709120',
    })).toMatchObject({
      CONTENT_ENDPOINT: 'https://content.example/graphql', LOG_LEVEL: 'debug', LOG_FORMAT: 'pretty', HOST: '0.0.0.0', PORT: 8080, IMAGE_CACHE_MAX_BYTES: 5368709120,
      REVALIDATE_SECRET: 's'.repeat(16), TAG_MANAGER_ID: 'GTM-AB12CD', MONITORING_SCRIPT_URL: 'https://mon.example/loader.js',
    });
  });

  it('configure the edge: how many instances, which nginx', () => {
    expect(parseServerEnv({ WORKERS: '3', NGINX_PATH: '/opt/nginx/sbin/nginx' })).toMatchObject({ WORKERS: 3, NGINX_PATH: '/opt/nginx/sbin/nginx' });
    expect(parseServerEnv({}).WORKERS).toBeUndefined();
    expect(errorOf({ WORKERS: '0' }).message).toMatch(/WORKERS must be at least 1/);
    expect(errorOf({ WORKERS: 'two' }).message).toMatch(/WORKERS must be a whole number/);
  });

  it('give the upstream timeouts to the service configs', () => {
    const env = parseServerEnv({ CATALOGUE_ENDPOINT: 'http://pim.example/graphql', UPSTREAM_CONNECT_TIMEOUT_MS: '1500', UPSTREAM_TIMEOUT_MS: '8000' });
    expect(contentConfig(env)).toEqual({ endpoint: 'http://127.0.0.1:4100/graphql', connectTimeoutMs: 1500, timeoutMs: 8000 });
    expect(catalogueConfig(env)).toEqual({ endpoint: 'http://pim.example/graphql', connectTimeoutMs: 1500, timeoutMs: 8000 });
  });

  it('configure the search and the prerender hosts', () => {
    expect(searchConfig(parseServerEnv({}), '/dist')).toEqual({ engine: 'embedded', indexDir: '/dist/search', memoryBudget: 268435456, timeouts: { connectTimeoutMs: 2000, timeoutMs: 5000 } });
    expect(searchConfig(parseServerEnv({ SEARCH_MEMORY_BUDGET: '67108864' }), '/dist').memoryBudget).toBe(64 * 1024 * 1024);
    expect(searchConfig(parseServerEnv({ SEARCH_ENGINE: 'opensearch', OPENSEARCH_URL: 'http://127.0.0.1:9200', SEARCH_INDEX_DIR: '/idx' }), '/dist'))
      .toMatchObject({ engine: 'opensearch', opensearchUrl: 'http://127.0.0.1:9200', indexDir: '/idx' });
    expect(parseServerEnv({}).PRERENDER_HOSTS).toBe('local');
    expect(parseServerEnv({ PRERENDER_HOSTS: 'public', DIST_DIR: 'out' })).toMatchObject({ PRERENDER_HOSTS: 'public', DIST_DIR: 'out' });
  });

  it('give the token introspection client and its cache window to the identity config (no secret: none)', () => {
    expect(servicesFromEnv(parseServerEnv({})).identity.introspection).toEqual({ clientId: 'kmx-api', cacheTtlMs: 15_000 });
    const env = parseServerEnv({ IDENTITY_INTROSPECTION_CLIENT_ID: 'komax-rs', IDENTITY_INTROSPECTION_CLIENT_SECRET: 'x'.repeat(32), IDENTITY_INTROSPECTION_CACHE_SECONDS: '0' });
    expect(servicesFromEnv(env).identity.introspection).toEqual({ clientId: 'komax-rs', clientSecret: 'x'.repeat(32), cacheTtlMs: 0 });
    expect(parseServerEnv({ IDENTITY_INTROSPECTION_CACHE_SECONDS: '30' }).IDENTITY_INTROSPECTION_CACHE_SECONDS).toBe(30);
  });

  it('build every service config once, secrets only where set', () => {
    const services = servicesFromEnv(parseServerEnv({ TAG_MANAGER_ID: 'GTM-AB12CD' }));
    expect(services.catalogue.endpoint).toBe('http://127.0.0.1:4101/graphql');
    expect(services.thirdParty.tagManagerId).toBe('GTM-AB12CD');
    expect('revalidateSecret' in services).toBe(false);
  });

  it('take RENDER_THREADS (0: render on the serving thread); by default the cores but one, from 1 to 4', () => {
    expect(parseServerEnv({ RENDER_THREADS: '0' }).RENDER_THREADS).toBe(0);
    expect(parseServerEnv({ RENDER_THREADS: '3' }).RENDER_THREADS).toBe(3);
    expect([1, 2, 8].map((cores) => defaultRenderThreads(cores))).toEqual([1, 1, 4]);
  });

  it('take a redis:// or rediss:// REDIS_URL (unset: none, the in-process state)', () => {
    expect(parseServerEnv({ REDIS_URL: 'redis://redis.internal:6379' }).REDIS_URL).toBe('redis://redis.internal:6379');
    expect(parseServerEnv({ REDIS_URL: 'rediss://:pw@redis.internal:6380/1' }).REDIS_URL).toBe('rediss://:pw@redis.internal:6380/1');
    expect(parseServerEnv({})).not.toHaveProperty('REDIS_URL');
  });

  it.each([['0', 'none'], ['25', 'error'], ['60', 'warn'], ['100', 'debug'], ['INFO', 'info']])('LOG_LEVEL=%s is the level %s', (value, level) => {
    expect(parseServerEnv({ LOG_LEVEL: value }).LOG_LEVEL).toBe(level);
  });
});

describe('malformed values', () => {
  it.each([
    ['CONTENT_ENDPOINT', 'not a url', 'CONTENT_ENDPOINT must be an absolute URL'],
    ['LOG_LEVEL', 'verbose', 'LOG_LEVEL must be one of none, error, warn, info, debug or a number from 0 to 100'],
    ['LOG_LEVEL', '150', 'LOG_LEVEL must be one of none, error, warn, info, debug or a number from 0 to 100'],
    ['LOG_FORMAT', 'xml', 'LOG_FORMAT must be json or pretty'],
    ['PORT', 'eighty', 'PORT must be a whole number'],
    ['PORT', '80.5', 'PORT must be a whole number'],
    ['REVALIDATE_SECRET', 'short', 'REVALIDATE_SECRET must be at least 16 characters'],
    ['TAG_MANAGER_ID', 'UA-1234', 'TAG_MANAGER_ID must look like GTM-XXXXXXX'],
    ['COOKIE_CONSENT_SCRIPT_URL', '/relative.js', 'COOKIE_CONSENT_SCRIPT_URL must be an absolute URL'],
    ['IMAGE_CACHE_MAX_BYTES', '1GiB', 'IMAGE_CACHE_MAX_BYTES must be a whole number of bytes, at least 1048576 (1 MiB)'],
    ['IMAGE_CACHE_MAX_BYTES', '-1', 'IMAGE_CACHE_MAX_BYTES must be a whole number of bytes, at least 1048576 (1 MiB)'],
    ['IMAGE_CACHE_MAX_BYTES', '1000', 'IMAGE_CACHE_MAX_BYTES must be a whole number of bytes, at least 1048576 (1 MiB)'],
    ['IMAGE_RENDERS_PER_CLIENT_MINUTE', '0', 'IMAGE_RENDERS_PER_CLIENT_MINUTE must be at least 1'],
    ['IMAGE_RENDERS_PER_CLIENT_MINUTE', 'many', 'IMAGE_RENDERS_PER_CLIENT_MINUTE must be a whole number'],
    ['SEARCH_MEMORY_BUDGET', '256MiB', 'SEARCH_MEMORY_BUDGET must be a whole number of bytes, at least 1048576 (1 MiB)'],
    ['UPSTREAM_TIMEOUT_MS', 'soon', 'UPSTREAM_TIMEOUT_MS must be a whole number of milliseconds'],
    ['UPSTREAM_CONNECT_TIMEOUT_MS', '0', 'UPSTREAM_CONNECT_TIMEOUT_MS must be between 50 and 120000 ms'],
    ['PRERENDER_HOSTS', 'cdn', 'PRERENDER_HOSTS must be local or public'],
    ['SEARCH_ENGINE', 'solr', 'SEARCH_ENGINE must be embedded or opensearch'],
    ['IDENTITY_INTROSPECTION_CLIENT_ID', 'kmx api', 'IDENTITY_INTROSPECTION_CLIENT_ID must be letters, digits, _ . or -'],
    ['IDENTITY_INTROSPECTION_CLIENT_SECRET', 'short', 'IDENTITY_INTROSPECTION_CLIENT_SECRET must be at least 16 characters'],
    ['IDENTITY_INTROSPECTION_CACHE_SECONDS', '31', 'IDENTITY_INTROSPECTION_CACHE_SECONDS must be a whole number of seconds from 0 to 30'],
    ['IDENTITY_INTROSPECTION_CACHE_SECONDS', '-1', 'IDENTITY_INTROSPECTION_CACHE_SECONDS must be a whole number of seconds from 0 to 30'],
    ['IDENTITY_INTROSPECTION_CACHE_SECONDS', '2.5', 'IDENTITY_INTROSPECTION_CACHE_SECONDS must be a whole number of seconds from 0 to 30'],
    ['IDENTITY_INTROSPECTION_CACHE_SECONDS', '15s', 'IDENTITY_INTROSPECTION_CACHE_SECONDS must be a whole number of seconds from 0 to 30'],
    ['RENDER_THREADS', '-1', 'RENDER_THREADS must be a whole number of threads from 0 to 32 (0 renders on the serving thread)'],
    ['RENDER_THREADS', '33', 'RENDER_THREADS must be a whole number of threads from 0 to 32 (0 renders on the serving thread)'],
    ['REDIS_URL', 'redis.internal:6379', 'REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://redis.internal:6379'],
    ['REDIS_URL', 'http://redis.internal:6379', 'REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://redis.internal:6379'],
    ['REDIS_URL', 'redis://', 'REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://redis.internal:6379'],
  ])('%s=%j is named in the error', (name, value, message) => {
    const err = errorOf({ [name]: value });
    expect(err.message).toContain(`- ${name}: ${message}`);
  });

  it('need an OpenSearch URL for the OpenSearch engine', () => {
    expect(errorOf({ SEARCH_ENGINE: 'opensearch' }).message).toContain('- OPENSEARCH_URL: SEARCH_ENGINE=opensearch needs OPENSEARCH_URL');
  });

  it('name the variable for a port out of range', () => {
    expect(errorOf({ PORT: '70000' }).message).toMatch(/- PORT: /);
    expect(errorOf({ PORT: '0' }).message).toMatch(/- PORT: /);
  });

  it('are all listed in one error', () => {
    const err = errorOf({ PORT: 'x', LOG_LEVEL: 'loud', CONTENT_ENDPOINT: 'nope' });
    expect(err.message.startsWith('Invalid environment:')).toBe(true);
    for (const name of ['PORT', 'LOG_LEVEL', 'CONTENT_ENDPOINT']) expect(err.message).toContain(`- ${name}:`);
  });
});

describe('ticketingEndpoint', () => {
  it('is TICKETING_ENDPOINT when set', () => {
    const env = parseServerEnv({ TICKETING_ENDPOINT: 'https://tickets.example/graphql', CATALOGUE_ENDPOINT: 'https://pim.example/graphql' });
    expect(ticketingEndpoint(env)).toBe('https://tickets.example/graphql');
  });

  it('falls back to the catalogue endpoint when unset or empty (spec §7)', () => {
    expect(ticketingEndpoint(parseServerEnv({ CATALOGUE_ENDPOINT: 'https://pim.example/graphql' }))).toBe('https://pim.example/graphql');
    expect(ticketingEndpoint(parseServerEnv({ TICKETING_ENDPOINT: '' }))).toBe('http://127.0.0.1:4101/graphql');
  });

  it('must be an absolute URL', () => {
    expect(errorOf({ TICKETING_ENDPOINT: 'tickets' }).message).toContain('TICKETING_ENDPOINT must be an absolute URL');
  });
});
