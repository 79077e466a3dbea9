import type { ContentModule, InvestorModule, InvestorModuleOf } from '../../lib/content/index.ts';
import { formatAxisMonth, formatCurrency, formatDay, formatMonth, formatNumber, formatPercent } from '../../i18n/format.ts';
import { lineChart, summarize, type ChartGeometry, type ChartSeries } from './chart.ts';

/**
 * Pure builders from investor modules to what the views render: every number, amount, percentage
 * and date formatted for the page locale (German as de-CH), chart geometry and the table
 * alternatives of the charts. No I/O; the views add the translated sentences.
 */

const INVESTOR_TYPES: ReadonlySet<string> = new Set<InvestorModule['type']>([
  'dividendPolicy', 'shareDistribution', 'keyData', 'sharePrice', 'totalReturn', 'shareholders', 'financialCalendar', 'annualFigures', 'annualReport',
]);

export function isInvestorModule(m: ContentModule): m is InvestorModule {
  return INVESTOR_TYPES.has(m.type);
}

/** A table cell: its text and, for numbers, the raw value (numbers are right-aligned). */
export interface Cell {
  text: string;
  numeric: boolean;
}

const num = (text: string): Cell => ({ text, numeric: true });
/** What an empty cell shows. */
export const NO_VALUE = '–';

/** A year as a column or row label: never grouped (2022, not 2’022). */
export const yearLabel = (year: number | string) => String(year);

// ── Dividend policy ─────────────────────────────────────────────────────────

export interface DividendRow {
  year: string;
  perShare: Cell;
  payoutRatio: Cell;
  paymentDate: { iso: string; text: string } | null;
}

export function dividendRows(m: InvestorModuleOf<'dividendPolicy'>, locale: string): DividendRow[] {
  return [...m.dividends].sort((a, b) => b.fiscalYear - a.fiscalYear).map((d) => ({
    year: yearLabel(d.fiscalYear),
    perShare: num(formatCurrency(d.perShare, locale, m.currency)),
    payoutRatio: num(d.payoutRatio == null ? NO_VALUE : formatPercent(d.payoutRatio, locale)),
    paymentDate: d.paymentDate ? { iso: d.paymentDate, text: formatDay(d.paymentDate, locale) } : null,
  }));
}

export function payoutRange(m: InvestorModuleOf<'dividendPolicy'>, locale: string): { min: string; max: string } | null {
  return m.payoutRange ? { min: formatPercent(m.payoutRange.min, locale, 0), max: formatPercent(m.payoutRange.max, locale, 0) } : null;
}

// ── Share distribution ──────────────────────────────────────────────────────

export interface DistributionRow {
  /** '1–100', or the lower bound alone for the open top bracket (the view says "and more"). */
  range: { from: string; to: string | null };
  shareholders: Cell;
  percent: Cell;
}

export function distributionRows(m: InvestorModuleOf<'shareDistribution'>, locale: string): DistributionRow[] {
  return m.brackets.map((b) => ({
    range: { from: formatNumber(b.from, locale), to: b.to == null ? null : formatNumber(b.to, locale) },
    shareholders: num(formatNumber(b.shareholders, locale)),
    percent: num(formatPercent(b.percentOfShares, locale)),
  }));
}

// ── Key data ────────────────────────────────────────────────────────────────

export interface KeyDataRow {
  label: string;
  value: string;
  /** For dates: the ISO day, so the view can use <time>. */
  iso: string | null;
  numeric: boolean;
}

export function keyDataRows(m: InvestorModuleOf<'keyData'>, locale: string): KeyDataRow[] {
  return m.items.map((item) => {
    switch (item.kind) {
      case 'text': return { label: item.label, value: item.text, iso: null, numeric: false };
      case 'number': return { label: item.label, value: formatNumber(item.value, locale, item.decimals), iso: null, numeric: true };
      case 'currency': return { label: item.label, value: formatCurrency(item.value, locale, m.currency, item.decimals), iso: null, numeric: true };
      case 'percent': return { label: item.label, value: formatPercent(item.value, locale, item.decimals), iso: null, numeric: true };
      case 'date': return { label: item.label, value: formatDay(item.date, locale), iso: item.date, numeric: false };
    }
  });
}

// ── Shareholders ────────────────────────────────────────────────────────────

export function shareholderRows(m: InvestorModuleOf<'shareholders'>, locale: string): { name: string; percent: Cell }[] {
  return m.holders.map((h) => ({ name: h.name, percent: num(formatPercent(h.percent, locale)) }));
}

// ── Financial calendar ──────────────────────────────────────────────────────

export interface CalendarItem {
  id: string;
  iso: string;
  date: string;
  title: string;
  location: string | null;
  description: string | null;
}

/** The events in date order, dates formatted. */
export function calendarItems(m: InvestorModuleOf<'financialCalendar'>, locale: string): CalendarItem[] {
  return [...m.events].sort((a, b) => a.date.localeCompare(b.date)).map((e) => ({
    id: e.id,
    iso: e.date,
    date: formatDay(e.date, locale),
    title: e.title,
    location: e.location ?? null,
    description: e.description ?? null,
  }));
}

// ── Annual figures ──────────────────────────────────────────────────────────

export interface FiguresTable {
  years: string[];
  rows: { label: string; cells: Cell[] }[];
}

/** Fiscal years side by side, oldest first: the columns are every year any row has a value for. */
export function annualFiguresTable(m: InvestorModuleOf<'annualFigures'>, locale: string): FiguresTable {
  const years = [...new Set(m.rows.flatMap((r) => Object.keys(r.values)))].sort();
  return {
    years,
    rows: m.rows.map((r) => ({
      label: r.label,
      cells: years.map((y) => {
        const value = r.values[y];
        if (value == null) return num(NO_VALUE);
        if (r.kind === 'percent') return num(formatPercent(value, locale, r.decimals));
        return num(formatNumber(value, locale, r.decimals));
      }),
    })),
  };
}

// ── Charts ──────────────────────────────────────────────────────────────────

/** The chart's drawing size in SVG units (the SVG scales to its container; the margins hold the axis labels at phone size too). */
export const CHART_SIZE = { width: 720, height: 340, margin: { top: 16, right: 44, bottom: 40, left: 76 } } as const;

export interface ChartModel {
  geometry: ChartGeometry;
  /** Per series: name and the formatted first, last, lowest and highest points (the description). */
  summaries: { name: string; first: string; firstDate: string; last: string; lastDate: string; min: string; minDate: string; max: string; maxDate: string }[];
  /** The table alternative: a header row and one row per date. */
  table: { head: string[]; rows: { iso: string; date: string; cells: Cell[] }[] };
  period: { from: string; to: string };
}

function chartModel(series: ChartSeries[], locale: string, value: (v: number) => string, axisValue: (v: number) => string, reference?: number): ChartModel {
  // Five dates on the axis: half-years for two years of months, with room between labels at phone size.
  const geometry = lineChart(series, { ...CHART_SIZE, formatValue: axisValue, formatDate: (d) => formatAxisMonth(d, locale), reference, xTicks: 5 });
  const summaries = series.flatMap((s) => {
    const sum = summarize(s.points);
    return sum ? [{
      name: s.name,
      first: value(sum.first.value), firstDate: formatMonth(sum.first.date, locale),
      last: value(sum.last.value), lastDate: formatMonth(sum.last.date, locale),
      min: value(sum.min.value), minDate: formatMonth(sum.min.date, locale),
      max: value(sum.max.value), maxDate: formatMonth(sum.max.date, locale),
    }] : [];
  });
  const dates = series[0]?.points ?? [];
  return {
    geometry,
    summaries,
    table: {
      head: series.map((s) => s.name),
      rows: dates.map((p, i) => ({ iso: p.date, date: formatMonth(p.date, locale), cells: series.map((s) => num(s.points[i] ? value(s.points[i]!.value) : NO_VALUE)) })),
    },
    period: { from: dates[0] ? formatMonth(dates[0].date, locale) : '', to: dates.length ? formatMonth(dates[dates.length - 1]!.date, locale) : '' },
  };
}

/** The share price line (closing prices in the currency). */
export function sharePriceChart(m: InvestorModuleOf<'sharePrice'>, locale: string, seriesName: string): ChartModel {
  return chartModel(
    [{ name: seriesName, points: m.points }],
    locale,
    (v) => formatCurrency(v, locale, m.currency),
    (v) => formatNumber(v, locale),
  );
}

/** Total return lines, indexed (100 = the start), with a reference line at 100. */
export function totalReturnChart(m: InvestorModuleOf<'totalReturn'>, locale: string): ChartModel {
  return chartModel(m.series.map((s) => ({ name: s.name, points: s.points })), locale, (v) => formatNumber(v, locale, 1), (v) => formatNumber(v, locale), 100);
}

/** A stable id fragment for the elements of a module (unique per page with the module's position). */
export function moduleDomId(type: string, index: number): string {
  return `ir-${type.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}-${index}`;
}
