import type { FeatureMiddleware } from '../platform/feature-middleware.ts';
import { acceptHandoff } from './handoff.server.ts';

/**
 * An editor arriving from the main host's editor area on a site with a host of its own: the
 * handoff token becomes this host's editor cookie (handoff.server.ts).
 */
export const editorMiddleware: FeatureMiddleware = {
  feature: 'editor',
  answer: (context, services) => acceptHandoff(context.url, services.editorPasswordHash, services.sharedState),
};
