// Test helpers shared by the features' integration tests (never imported by app code).
import { memorySharedState } from '../../src/lib/shared-state/index.ts';
import type { Services } from '../../src/features/platform/context.ts';

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
