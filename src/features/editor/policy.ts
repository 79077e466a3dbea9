import type { FeaturePolicy } from '../platform/feature-policy.ts';

/**
 * The editor area's page path (spec 2.1, 2.2: `/{locale}/editor` is not public). Pure: the
 * prerender guard uses it so no route source can ever write a static file there, on any site.
 */
export function isEditorPagePath(pagePath: string): boolean {
  return (pagePath.split('/').filter(Boolean)[0] ?? '').toLowerCase() === 'editor';
}

/** The editor area never has a static file. */
export const editorPolicy: FeaturePolicy = { feature: 'editor', neverStatic: isEditorPagePath };
