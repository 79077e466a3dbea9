import * as v from 'valibot';

/** The raw answers of the translation documents (the boundary; translation.ts maps them). */
export const TranslationStateSchema = v.picklist(['MarkedForTranslation', 'InProgress', 'Translated']);

export const RawPageTranslationSchema = v.object({
  pageId: v.string(),
  sourceLanguage: v.string(),
  targetLanguages: v.array(v.object({
    id: v.string(),
    language: v.string(),
    translationState: TranslationStateSchema,
    exportedAt: v.nullish(v.string()),
    importedAt: v.nullish(v.string()),
  })),
});

export const PageTranslationAnswerSchema = v.object({ pageTranslation: v.nullable(RawPageTranslationSchema) });
export const PageTranslationsAnswerSchema = v.object({ pageTranslations: v.array(RawPageTranslationSchema) });
export const StartTranslationAnswerSchema = v.object({ startTranslation: v.nullable(RawPageTranslationSchema) });
export const ResetTranslationAnswerSchema = v.object({ resetTranslation: v.nullable(RawPageTranslationSchema) });

export const EditorPagesAnswerSchema = v.object({
  pages: v.array(v.object({
    id: v.string(),
    site: v.nullable(v.string()),
    slug: v.string(),
    path: v.string(),
    title: v.string(),
    contentLanguage: v.string(),
    isPublished: v.boolean(),
    protection: v.number(),
    translationSourceLanguage: v.string(),
    translationTargetLanguages: v.array(v.string()),
  })),
});

export type RawPageTranslation = v.InferOutput<typeof RawPageTranslationSchema>;
