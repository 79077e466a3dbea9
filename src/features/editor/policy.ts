import type { FeaturePolicy } from '../platform/feature-policy.ts';

/**
 * The editor area's page path (spec 2.1, 2.2: `/{locale}/editor` is not public). Pure: the
 * prerender guard uses it so no route source can ever write a static file there, on any site.
 */
export function isEditorPagePath(pagePath: string): boolean {
  return (pagePath.split('/').filter(Boolean)[0] ?? '').toLowerCase() === 'editor';
}

/**
 * The query parameter that carries a draft-preview handoff token to another host (handoff.server.ts):
 * the middleware must see it, so a page with it is never answered from its static file.
 */
export const HANDOFF_PARAM = 'editor-handoff';

/** The editor area never has a static file; a handoff link is rendered on demand. */
export const editorPolicy: FeaturePolicy = { feature: 'editor', neverStatic: isEditorPagePath, dynamicParams: [HANDOFF_PARAM] };
