import type { FeaturePolicy } from '../platform/feature-policy.ts';
import { isEditorPagePath } from './area.ts';

/** The editor area (spec 2.1, 2.2: `/{locale}/editor` is not public) never has a static file. */
export const editorPolicy: FeaturePolicy = { feature: 'editor', neverStatic: isEditorPagePath };
