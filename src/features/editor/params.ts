/**
 * The editor area's and the navigation APIs' parameters (valibot at the boundary): ids as the
 * content hub writes them, two-letter language codes, the stage (spec §4: DRAFT or PUBLISHED,
 * default PUBLISHED). Pure.
 */
import * as v from 'valibot';
import type { Stage } from '../../lib/content/content-service.ts';

export const STAGES = ['DRAFT', 'PUBLISHED'] as const satisfies readonly Stage[];
export const DEFAULT_STAGE: Stage = 'PUBLISHED';

export const IdSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, - or _'));
export const LanguageSchema = v.pipe(v.string(), v.regex(/^[a-z]{2}$/, 'must be a two-letter language code such as en or de'));
export const StageSchema = v.picklist(STAGES, 'must be DRAFT or PUBLISHED');

export type ParamResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** Checks one parameter; the message names it: `stage must be DRAFT or PUBLISHED`. */
export function checkParam<S extends v.GenericSchema>(name: string, schema: S, value: unknown): ParamResult<v.InferOutput<S>> {
  const r = v.safeParse(schema, value);
  return r.success ? { ok: true, value: r.output } : { ok: false, message: `${name} ${r.issues[0].message}` };
}

/** The stage of a query (`stage` absent or empty: PUBLISHED). */
export function stageParam(value: string | null): ParamResult<Stage> {
  return value === null || value === '' ? { ok: true, value: DEFAULT_STAGE } : checkParam('stage', StageSchema, value);
}
