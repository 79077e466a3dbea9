import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { ModuleSchema } from './schema.ts';
import { mapPage } from './map.ts';
import type { RawPage } from './schema.ts';
import { resolveDemoDates } from '../../../emulators/content-hub/demo-dates.ts';

const INVESTOR_TYPES = ['dividendPolicy', 'shareDistribution', 'keyData', 'sharePrice', 'totalReturn', 'shareholders', 'financialCalendar', 'annualFigures', 'annualReport'];

/** The first issue's message, as mapPage logs it for a skipped module. */
function problem(input: unknown): string | null {
  const r = v.safeParse(ModuleSchema, input);
  return r.success ? null : r.issues[0].message;
}

const calendar = {
  type: 'financialCalendar',
  title: 'Financial calendar',
  events: [{ id: 'agm-2023', date: '2023-04-12', title: 'Annual General Meeting' }],
};
const figures = {
  type: 'annualFigures',
  title: 'Annual figures',
  rows: [{ label: 'Net sales', kind: 'currency', values: { 2021: 423.5, 2022: 598.4 } }],
};

describe('investor module schemas', () => {
  it('accepts the demo investors page in every language, every module (its upcoming dates as the content hub answers them)', () => {
    const pages = JSON.parse(readFileSync(new URL('../../../emulators/data/content/pages.json', import.meta.url), 'utf8')) as { id: string; content: Record<string, { modules: unknown[] }> }[];
    const investors = pages.find((p) => p.id === 'cmzufet1t9mqiif4fivkbsq54')!;
    for (const [lang, content] of Object.entries(investors.content)) {
      const found = content.modules.filter((m) => INVESTOR_TYPES.includes((m as { type: string }).type));
      expect(found.map((m) => (m as { type: string }).type).sort(), lang).toEqual([...INVESTOR_TYPES].sort());
      for (const m of found) expect(problem(resolveDemoDates(m, lang)), `${lang} ${(m as { type: string }).type}`).toBeNull();
    }
  });

  it('fills defaults: currency CHF, empty text, key-data decimals', () => {
    const out = v.parse(ModuleSchema, { type: 'keyData', title: 'Key data', items: [{ kind: 'currency', label: 'Close', value: 246 }] });
    expect(out).toMatchObject({ currency: 'CHF', text: [], items: [{ decimals: 2 }] });
  });

  it('rejects calendar days that do not exist or are not ISO dates', () => {
    expect(problem({ ...calendar, events: [{ ...calendar.events[0], date: '2023-02-30' }] })).toBe('a date must be a real calendar day');
    expect(problem({ ...calendar, events: [{ ...calendar.events[0], date: '12.04.2023' }] })).toBe('a date must look like 2023-03-14');
  });

  it('rejects event ids that cannot be a file name, and repeated ids', () => {
    expect(problem({ ...calendar, events: [{ ...calendar.events[0], id: '../agm' }] })).toMatch(/^financialCalendar: event id must be a slug/);
    expect(problem({ ...calendar, events: [calendar.events[0], calendar.events[0]] })).toBe('financialCalendar: event ids must be unique');
    expect(problem({ ...calendar, events: [] })).toBe('financialCalendar: events needs at least one event');
  });

  it('rejects figures that are not numbers, naming the module', () => {
    expect(problem({ ...figures, rows: [{ ...figures.rows[0], values: { 2021: '423.5', 2022: 598.4 } }] })).toBe('annualFigures: every value must be a number');
    expect(problem({ ...figures, rows: [{ ...figures.rows[0], values: { 21: 1, 2022: 2 } }] })).toBe('annualFigures: values are keyed by fiscal year, such as "2022"');
    expect(problem({ ...figures, rows: [{ ...figures.rows[0], values: { 2022: 2 } }] })).toBe('annualFigures: the rows need values for at least two years side by side');
    expect(problem({ ...figures, rows: [{ ...figures.rows[0], kind: 'money' }] })).toBe('annualFigures: a row kind must be currency, number or percent');
  });

  it('rejects chart series that cannot be drawn or compared', () => {
    const price = { type: 'sharePrice', title: 'Share price', points: [{ date: '2022-01-31', value: 276 }, { date: '2022-02-28', value: 262.5 }] };
    expect(problem(price)).toBeNull();
    expect(problem({ ...price, points: [price.points[1], price.points[0]] })).toBe('sharePrice: points must be in ascending date order without repeats');
    expect(problem({ ...price, points: [price.points[0]] })).toBe('sharePrice: points needs at least two prices to draw a line');
    expect(problem({ ...price, currency: 'Fr.' })).toBe('currency must be an ISO code such as CHF');
    const series = (dates: string[]) => ({ name: 'X', points: dates.map((date) => ({ date, value: 100 })) });
    expect(problem({ type: 'totalReturn', title: 'TR', series: [series(['2021-01-01', '2021-02-01']), series(['2021-01-01', '2021-03-01'])] }))
      .toBe('totalReturn: every series must have the same dates (the table lists them side by side)');
  });

  it('rejects inconsistent share brackets and payout ranges', () => {
    expect(problem({ type: 'shareDistribution', title: 'D', asOf: '2022-12-31', brackets: [{ from: 100, to: 1, shareholders: 1, percentOfShares: 1 }] }))
      .toBe("shareDistribution: a bracket's to must not be below its from");
    expect(problem({ type: 'dividendPolicy', title: 'P', payoutRange: { min: 60, max: 40 }, dividends: [{ fiscalYear: 2022, perShare: 5 }] }))
      .toBe('dividendPolicy: payoutRange.min must not exceed payoutRange.max');
    expect(problem({ type: 'keyData', title: 'K', items: [{ kind: 'ratio', label: 'x', value: 1 }] }))
      .toBe('keyData: every item needs a kind: text, number, currency, percent or date');
  });

  it('drops a broken investor module from a page with a message that says what to fix, keeping the rest', () => {
    const raw = {
      id: 'p1', site: 'site-main', mainSiteOnly: false, slug: 'investors', path: '/investors', pageType: 'Content', theme: 'Default', countries: [],
      protection: 0, parents: [], languages: ['en'], contentLanguage: 'en', title: 'Investors', description: null, updatedAt: '2026-01-01T00:00:00Z', isPublished: true,
      modules: [calendar, { ...calendar, events: [{ ...calendar.events[0], date: '2023-13-01' }] }],
    } as RawPage;
    const messages: string[] = [];
    const page = mapPage(raw, (m) => messages.push(m));
    expect(page.modules.map((m) => m.type)).toEqual(['financialCalendar']);
    expect(messages).toEqual(['page p1: module 1 (financialCalendar) skipped: a date must be a real calendar day']);
  });
});
