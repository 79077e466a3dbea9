import type { FeatureMiddleware } from '../../features/platform/feature-middleware.ts';
import { signInMiddleware } from '../../features/sign-in/middleware.server.ts';
import { editorMiddleware } from '../../features/editor/middleware.server.ts';
import { isEditorRequest } from '../../features/editor/session.server.ts';
import { draftPreviewMiddleware } from '../../features/draft-preview/middleware.server.ts';

export type { FeatureMiddleware, RenderMode } from '../../features/platform/feature-middleware.ts';

/**
 * The features' middleware steps (each in `src/features/<feature>/middleware.server.ts`), in the
 * order src/middleware.ts runs them; their delivery policies are in policies.ts (kept apart:
 * the server runs those under plain Node, these only in the Astro app).
 */
export const FEATURE_MIDDLEWARE: readonly FeatureMiddleware[] = [
  signInMiddleware,
  editorMiddleware,
  draftPreviewMiddleware((request, services) => isEditorRequest(request, services.editorPasswordHash, services.sharedState)),
];
