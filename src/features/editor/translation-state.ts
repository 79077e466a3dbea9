/**
 * A page's overall translation state (spec §4 Editor): Translated if every target language is
 * translated, InProgress if any is in progress, otherwise MarkedForTranslation. Pure.
 * @example pageTranslationState([{ translationState: 'Translated' }, { translationState: 'InProgress' }]) // 'InProgress'
 */
import type { TranslationState } from '../../lib/content/translation/index.ts';

export type { TranslationState };

export const TRANSLATION_STATES: readonly TranslationState[] = ['MarkedForTranslation', 'InProgress', 'Translated'];

export function pageTranslationState(targets: readonly { translationState: TranslationState }[]): TranslationState {
  if (targets.every((t) => t.translationState === 'Translated')) return 'Translated';
  if (targets.some((t) => t.translationState === 'InProgress')) return 'InProgress';
  return 'MarkedForTranslation';
}
