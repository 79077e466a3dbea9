import * as v from 'valibot';
import { MAX_SLUGS } from '../../lib/catalogue/index.ts';
import { UI_LANGUAGES } from '../../site/locale.ts';

const Slug = v.pipe(v.string(), v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'slugs are lowercase kebab-case, e.g. kappa-310'), v.maxLength(100));

/** The query of both routes: `?language=en&slugs=kappa-310,alpha-550`. */
export const CatalogueApiQuery = v.object({
  language: v.picklist(UI_LANGUAGES, `language must be one of ${UI_LANGUAGES.join(', ')}`),
  slugs: v.pipe(
    v.string('slugs is required: a comma-separated list of product slugs'),
    v.transform((s) => [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))]),
    v.minLength(1, 'slugs must name at least one product'),
    v.maxLength(MAX_SLUGS, `slugs may name at most ${MAX_SLUGS} products`),
    v.array(Slug),
  ),
});
export type CatalogueApiQuery = v.InferOutput<typeof CatalogueApiQuery>;

/** Validates the query; a clear message for the 400 answer otherwise. */
export function parseCatalogueQuery(params: URLSearchParams): { ok: true; value: CatalogueApiQuery } | { ok: false; message: string } {
  const raw = { language: params.get('language') ?? undefined, slugs: params.get('slugs') ?? undefined };
  const parsed = v.safeParse(CatalogueApiQuery, raw);
  return parsed.success ? { ok: true, value: parsed.output } : { ok: false, message: parsed.issues[0].message };
}

