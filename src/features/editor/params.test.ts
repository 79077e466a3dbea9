import { describe, expect, it } from 'vitest';
import { checkParam, IdSchema, LanguageSchema, stageParam } from './params.ts';

describe('editor parameters', () => {
  it('defaults the stage to PUBLISHED and refuses unknown stages with a clear message', () => {
    expect(stageParam(null)).toEqual({ ok: true, value: 'PUBLISHED' });
    expect(stageParam('')).toEqual({ ok: true, value: 'PUBLISHED' });
    expect(stageParam('DRAFT')).toEqual({ ok: true, value: 'DRAFT' });
    expect(stageParam('draft')).toEqual({ ok: false, message: 'stage must be DRAFT or PUBLISHED' });
    expect(stageParam('ARCHIVED')).toEqual({ ok: false, message: 'stage must be DRAFT or PUBLISHED' });
  });
  it('accepts content-hub ids and refuses anything else', () => {
    expect(checkParam('pageId', IdSchema, 'cm86g1xcd2xsqlb0racgnpi2o')).toEqual({ ok: true, value: 'cm86g1xcd2xsqlb0racgnpi2o' });
    expect(checkParam('siteId', IdSchema, 'site-main')).toEqual({ ok: true, value: 'site-main' });
    for (const bad of ['', 'a b', '../x', 'x'.repeat(65), '<script>']) {
      expect(checkParam('pageId', IdSchema, bad)).toEqual({ ok: false, message: 'pageId must be 1 to 64 letters, digits, - or _' });
    }
  });
  it('accepts two-letter language codes only', () => {
    expect(checkParam('lang', LanguageSchema, 'de')).toEqual({ ok: true, value: 'de' });
    for (const bad of ['DE', 'de-ch', 'deu', '', null]) expect(checkParam('lang', LanguageSchema, bad).ok).toBe(false);
  });
});
