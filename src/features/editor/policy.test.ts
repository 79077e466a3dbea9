import { describe, expect, it } from 'vitest';
import { isEditorPagePath } from './policy.ts';

describe('isEditorPagePath', () => {
  it('is the editor area and below, in any case', () => {
    for (const p of ['/editor', '/Editor', '/editor/x', 'editor']) expect(isEditorPagePath(p)).toBe(true);
    for (const p of ['', '/', '/editorial', '/about-us/editor', '/editors']) expect(isEditorPagePath(p)).toBe(false);
  });
});
