import { contentQuery, type ContentContext, type Stage } from '../content-service.ts';
import * as q from './queries.ts';
import * as s from './schema.ts';
import type { RawPageTranslation } from './schema.ts';

/**
 * Translation jobs and the editor's page list (spec §3 Page translation fields, Translation target;
 * §4 Editor). Never cached: the editor area shows them as they are now.
 */

export type TranslationState = 'MarkedForTranslation' | 'InProgress' | 'Translated';

/** One target language of a page's translation (spec §3 Translation target). */
export interface TranslationTarget {
  id: string;
  language: string;
  translationState: TranslationState;
  /** ISO 8601, null until the text went to the translators. */
  exportedAt: string | null;
  /** ISO 8601, null until the translation came back. */
  importedAt: string | null;
}

export interface PageTranslation {
  pageId: string;
  sourceLanguage: string;
  targetLanguages: TranslationTarget[];
}

/** A page as the editor area lists it. */
export interface EditorPage {
  id: string;
  /** Site id, null for a global page. */
  siteId: string | null;
  slug: string;
  /** Site-relative path ('' for home). */
  path: string;
  title: string;
  contentLanguage: string;
  isPublished: boolean;
  protection: number;
  translationSourceLanguage: string;
  translationTargetLanguages: string[];
}

export function mapPageTranslation(raw: RawPageTranslation): PageTranslation {
  return {
    pageId: raw.pageId,
    sourceLanguage: raw.sourceLanguage,
    targetLanguages: raw.targetLanguages.map((t) => ({ id: t.id, language: t.language, translationState: t.translationState, exportedAt: t.exportedAt ?? null, importedAt: t.importedAt ?? null })),
  };
}

/** The translation job of a page; null when the content hub knows no such page. */
export async function getPageTranslation(ctx: ContentContext, pageId: string): Promise<PageTranslation | null> {
  const raw = await contentQuery(ctx, 'pageTranslation', q.PAGE_TRANSLATION, { pageId }, s.PageTranslationAnswerSchema);
  return raw.pageTranslation ? mapPageTranslation(raw.pageTranslation) : null;
}

/** The translation jobs of several pages, by page id (unknown ids are missing). */
export async function getPageTranslations(ctx: ContentContext, pageIds: string[]): Promise<Map<string, PageTranslation>> {
  if (pageIds.length === 0) return new Map();
  const raw = await contentQuery(ctx, 'pageTranslations', q.PAGE_TRANSLATIONS, { pageIds }, s.PageTranslationsAnswerSchema);
  return new Map(raw.pageTranslations.map((t) => [t.pageId, mapPageTranslation(t)]));
}

/** Marks every target language of the page for translation and starts the job; null for an unknown page. */
export async function startTranslation(ctx: ContentContext, pageId: string): Promise<PageTranslation | null> {
  const raw = await contentQuery(ctx, 'startTranslation', q.START_TRANSLATION, { pageId }, s.StartTranslationAnswerSchema);
  return raw.startTranslation ? mapPageTranslation(raw.startTranslation) : null;
}

/** Puts every target language back to MarkedForTranslation with the dates cleared; null for an unknown page. */
export async function resetTranslation(ctx: ContentContext, pageId: string): Promise<PageTranslation | null> {
  const raw = await contentQuery(ctx, 'resetTranslation', q.RESET_TRANSLATION, { pageId }, s.ResetTranslationAnswerSchema);
  return raw.resetTranslation ? mapPageTranslation(raw.resetTranslation) : null;
}

/** Every page of a site (global pages included) in a stage, sorted by path. */
export async function listEditorPages(ctx: ContentContext, siteId: string, stage: Stage): Promise<EditorPage[]> {
  const raw = await contentQuery(ctx, 'editorPages', q.EDITOR_PAGES, { site: siteId, stage }, s.EditorPagesAnswerSchema);
  return raw.pages
    .map((p) => ({
      id: p.id, siteId: p.site, slug: p.slug, path: p.path, title: p.title, contentLanguage: p.contentLanguage, isPublished: p.isPublished,
      protection: p.protection, translationSourceLanguage: p.translationSourceLanguage, translationTargetLanguages: p.translationTargetLanguages,
    }))
    .sort((a, b) => a.path.localeCompare(b.path));
}
