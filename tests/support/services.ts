// Test helpers shared by the features' integration tests (never imported by app code).
import { afterAll, beforeAll } from 'vitest';
import { startDemoServices, type DemoServices } from '../../emulators/testing.ts';
import { getSystemData } from '../../src/lib/content/index.ts';
import { memorySharedState } from '../../src/lib/shared-state/index.ts';
import type { Services } from '../../src/features/platform/context.ts';
import type { SystemData } from '../../src/site/types.ts';

/** The services of a test talking to emulators at the given endpoints (identity at its local defaults). */
export function testServices(endpoints: { contentEndpoint: string; catalogueEndpoint: string }): Services {
  const timeouts = { connectTimeoutMs: 2000, timeoutMs: 5000 };
  return {
    content: { endpoint: endpoints.contentEndpoint },
    catalogue: { endpoint: endpoints.catalogueEndpoint },
    identity: {
      issuer: 'http://localhost:4102/am/oauth2/realms/root/realms/alpha',
      clientId: 'kmx-web',
      audience: 'kmx-web',
      // The identity emulator's local introspection client (emulators/identity/server.ts).
      introspection: { clientId: 'kmx-api', clientSecret: 'local-introspection-secret-change-me', cacheTtlMs: 15_000 },
      managementUrl: 'http://localhost:4102/openidm',
      timeouts,
    },
    ticketing: { endpoint: endpoints.catalogueEndpoint, debugLevel: 'none', linkSecret: 'test-link-secret-0123456789abcdef', timeouts },
    timeouts,
    pageGrantSecret: 'test-grant-secret-0123456789abcdef',
    sharedState: memorySharedState(),
    thirdParty: {},
  };
}

/**
 * The demo world of a test file: the content hub and catalogue emulators over the demo data,
 * started before its tests and closed after, the test's services and the published system data
 * (read them inside tests or hooks, once `beforeAll` has run).
 */
export function useDemoWorld(): { readonly services: Services; readonly system: SystemData } {
  let demo: DemoServices | undefined;
  const world = {} as { services: Services; system: SystemData };
  beforeAll(async () => {
    demo = await startDemoServices();
    world.services = testServices(demo);
    world.system = await getSystemData({ config: world.services.content, locales: ['en'], stage: 'PUBLISHED' });
  });
  afterAll(() => demo?.close());
  return world;
}
