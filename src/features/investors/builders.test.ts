import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { ModuleSchema } from '../../lib/content/schema.ts';
import type { ContentModule } from '../../lib/content/index.ts';
import { annualFiguresTable, calendarItems, distributionRows, dividendRows, isInvestorModule, keyDataRows, moduleDomId, payoutRange, sharePriceChart, shareholderRows, totalReturnChart } from './builders.ts';
import { investorModuleText } from './search-text.ts';
import { calendarFileUrl } from './links.ts';

/** A module as the page gets it: validated (defaults filled) by the boundary schema. */
function mod<T extends ContentModule['type']>(raw: Record<string, unknown> & { type: T }) {
  return v.parse(ModuleSchema, raw) as Extract<ContentModule, { type: T }>;
}

describe('dividend policy', () => {
  const m = mod({
    type: 'dividendPolicy', title: 'Dividend policy', payoutRange: { min: 40, max: 60 },
    dividends: [
      { fiscalYear: 2021, perShare: 3, payoutRatio: 49, paymentDate: '2022-04-21' },
      { fiscalYear: 2022, perShare: 5, payoutRatio: 53.9, paymentDate: '2023-04-18' },
      { fiscalYear: 2020, perShare: 0, payoutRatio: null, paymentDate: null },
    ],
  });
  it('lists the newest year first, amounts and ratios in the locale', () => {
    const rows = dividendRows(m, 'de-CH');
    expect(rows.map((r) => r.year)).toEqual(['2022', '2021', '2020']);
    expect(rows[0]!.perShare.text).toBe('CHF\u00a05.00');
    expect(rows[0]!.payoutRatio.text).toBe('53.9%');
    expect(rows[0]!.paymentDate).toEqual({ iso: '2023-04-18', text: '18. April 2023' });
    expect(rows[2]!.payoutRatio.text).toBe('–');
    expect(rows[2]!.paymentDate).toBeNull();
  });
  it('formats the payout range as whole percentages', () => {
    expect(payoutRange(m, 'en')).toEqual({ min: '40%', max: '60%' });
  });
});

describe('share distribution and shareholders', () => {
  it('groups bracket bounds and counts in de-CH; the open bracket has no upper bound', () => {
    const m = mod({ type: 'shareDistribution', title: 'D', asOf: '2022-12-31', brackets: [{ from: 1001, to: 10000, shareholders: 1587, percentOfShares: 8.9 }, { from: 100001, to: null, shareholders: 6, percentOfShares: 41.5 }] });
    expect(distributionRows(m, 'de-CH')).toEqual([
      { range: { from: '1’001', to: '10’000' }, shareholders: { text: '1’587', numeric: true }, percent: { text: '8.9%', numeric: true } },
      { range: { from: '100’001', to: null }, shareholders: { text: '6', numeric: true }, percent: { text: '41.5%', numeric: true } },
    ]);
  });
  it('formats shareholder percentages in French', () => {
    const m = mod({ type: 'shareholders', title: 'S', asOf: '2022-12-31', holders: [{ name: 'Seetal Industrieholding AG', percent: 24.9 }] });
    expect(shareholderRows(m, 'fr')[0]!.percent.text.replace(/\u00a0/g, ' ')).toBe('24,9 %');
  });
});

describe('key data', () => {
  it('formats each kind of line', () => {
    const m = mod({
      type: 'keyData', title: 'K', items: [
        { kind: 'text', label: 'ISIN', text: 'CH0010702154' },
        { kind: 'number', label: 'Shares', value: 5134862 },
        { kind: 'currency', label: 'Close', value: 246 },
        { kind: 'percent', label: 'Yield', value: 2.03 },
        { kind: 'date', label: 'Listed since', date: '1997-06-02' },
      ],
    });
    expect(keyDataRows(m, 'de-CH').map((r) => r.value)).toEqual(['CH0010702154', '5’134’862', 'CHF\u00a0246.00', '2.0%', '2. Juni 1997']);
    expect(keyDataRows(m, 'en').map((r) => r.numeric)).toEqual([false, true, true, true, false]);
    expect(keyDataRows(m, 'en')[4]!.iso).toBe('1997-06-02');
  });
});

describe('annual figures', () => {
  const m = mod({
    type: 'annualFigures', title: 'A', rows: [
      { label: 'Net sales', kind: 'currency', values: { 2022: 1598.4, 2021: 423.5 } },
      { label: 'EBIT margin', kind: 'percent', values: { 2021: 9.9, 2022: 10.4, 2020: 0.8 } },
      { label: 'Employees', kind: 'number', decimals: 0, values: { 2021: 2315, 2022: 3368 } },
    ],
  });
  it('puts every year any row has side by side, oldest first, a dash where a row has none', () => {
    const table = annualFiguresTable(m, 'de-CH');
    expect(table.years).toEqual(['2020', '2021', '2022']);
    expect(table.rows.map((r) => [r.label, ...r.cells.map((c) => c.text)])).toEqual([
      ['Net sales', '–', '423.5', '1’598.4'],
      ['EBIT margin', '0.8%', '9.9%', '10.4%'],
      ['Employees', '–', '2’315', '3’368'],
    ]);
  });
  it('uses the locale’s separators (Japanese)', () => {
    expect(annualFiguresTable(m, 'ja').rows[0]!.cells[2]!.text).toBe('1,598.4');
  });
});

describe('financial calendar', () => {
  const m = mod({
    type: 'financialCalendar', title: 'Financial calendar', events: [
      { id: 'half-year-results-2023', date: '2023-08-17', title: 'Half-year results' },
      { id: 'annual-results-2023', date: '2023-03-14', title: 'Annual results conference', location: 'Dierikon' },
      { id: 'general-meeting-2023', date: '2023-04-12', title: 'Annual General Meeting' },
    ],
  });
  it('lists the events by date with the dates formatted for the page', () => {
    expect(calendarItems(m, 'en').map((e) => [e.iso, e.date, e.title])).toEqual([
      ['2023-03-14', 'March 14, 2023', 'Annual results conference'],
      ['2023-04-12', 'April 12, 2023', 'Annual General Meeting'],
      ['2023-08-17', 'August 17, 2023', 'Half-year results'],
    ]);
    expect(calendarItems(m, 'de-CH')[0]!.date).toBe('14. März 2023');
  });
  it('links each event to its .ics file', () => {
    expect(calendarFileUrl('cmzufet1t9mqiif4fivkbsq54', 'general-meeting-2023', 'de-ch')).toBe('/api/investors/calendar/cmzufet1t9mqiif4fivkbsq54/general-meeting-2023.ics?l=de-ch');
  });
});

describe('charts', () => {
  const points = [{ date: '2021-01-29', value: 215 }, { date: '2021-02-26', value: 1228.5 }, { date: '2021-03-31', value: 210 }];
  it('gives the share price chart a table alternative and a summary in the locale', () => {
    const chart = sharePriceChart(mod({ type: 'sharePrice', title: 'Share price', points }), 'de-CH', 'Schlusskurs (CHF)');
    expect(chart.table.head).toEqual(['Schlusskurs (CHF)']);
    expect(chart.table.rows.map((r) => [r.date, r.cells[0]!.text])).toEqual([['Jan. 2021', 'CHF\u00a0215.00'], ['Feb. 2021', 'CHF\u00a01’228.50'], ['März 2021', 'CHF\u00a0210.00']]);
    expect(chart.summaries[0]).toMatchObject({ first: 'CHF\u00a0215.00', last: 'CHF\u00a0210.00', min: 'CHF\u00a0210.00', minDate: 'März 2021', max: 'CHF\u00a01’228.50', maxDate: 'Feb. 2021' });
    expect(chart.period).toEqual({ from: 'Jan. 2021', to: 'März 2021' });
    expect(chart.geometry.yTicks.some((t) => t.label === '1’200')).toBe(true);
  });
  it('draws total return series side by side with a reference line at 100', () => {
    const s = (name: string, values: number[]) => ({ name, points: values.map((value, i) => ({ date: points[i]!.date, value })) });
    const chart = totalReturnChart(mod({ type: 'totalReturn', title: 'TR', series: [s('Komax', [100, 110, 120]), s('SPI', [100, 104, 98])] }), 'en');
    expect(chart.geometry.series.map((g) => g.style.marker)).toEqual(['circle', 'square']);
    expect(chart.geometry.reference).not.toBeNull();
    expect(chart.table.head).toEqual(['Komax', 'SPI']);
    expect(chart.table.rows[2]!.cells.map((c) => c.text)).toEqual(['120.0', '98.0']);
  });
});

describe('module helpers', () => {
  it('tells investor modules from the others', () => {
    expect(isInvestorModule(mod({ type: 'keyData', title: 'K', items: [{ kind: 'text', label: 'a', text: 'b' }] }))).toBe(true);
    expect(isInvestorModule({ type: 'quote', text: 'q', author: 'a', role: null, image: null })).toBe(false);
  });
  it('makes element ids from type and position', () => {
    expect(moduleDomId('sharePrice', 3)).toBe('ir-share-price-3');
  });
  it('gives the search the words, not the figures', () => {
    const words = investorModuleText(mod({ type: 'shareholders', title: 'Shareholders', text: ['Holders above 3 percent.'], asOf: '2022-12-31', holders: [{ name: 'Seetal Industrieholding AG', percent: 24.9 }] }));
    expect(words).toEqual(['Shareholders', 'Holders above 3 percent.', 'Seetal Industrieholding AG']);
    const cal = investorModuleText(mod({ type: 'financialCalendar', title: 'Financial calendar', events: [{ id: 'agm', date: '2023-04-12', title: 'Annual General Meeting', location: 'Lucerne' }] }));
    expect(cal).toEqual(['Financial calendar', 'Annual General Meeting', 'Lucerne', '']);
  });
});
