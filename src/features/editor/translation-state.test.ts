import { describe, expect, it } from 'vitest';
import { pageTranslationState, type TranslationState } from './translation-state.ts';

const of = (...states: TranslationState[]) => states.map((translationState) => ({ translationState }));

describe('pageTranslationState (spec §4)', () => {
  it('is Translated when every target is translated', () => {
    expect(pageTranslationState(of('Translated', 'Translated'))).toBe('Translated');
    expect(pageTranslationState(of('Translated'))).toBe('Translated');
  });
  it('is InProgress when any target is in progress and not all are translated', () => {
    expect(pageTranslationState(of('Translated', 'InProgress'))).toBe('InProgress');
    expect(pageTranslationState(of('MarkedForTranslation', 'InProgress', 'Translated'))).toBe('InProgress');
  });
  it('is MarkedForTranslation otherwise', () => {
    expect(pageTranslationState(of('MarkedForTranslation'))).toBe('MarkedForTranslation');
    expect(pageTranslationState(of('Translated', 'MarkedForTranslation'))).toBe('MarkedForTranslation');
  });
  it('is Translated for a page without target languages (nothing left to translate)', () => {
    expect(pageTranslationState([])).toBe('Translated');
  });
});
