import * as v from 'valibot';

/**
 * The investor-relations modules as the content hub stores them (module JSON on a page, editors
 * maintain the figures). Numbers are plain numbers in the page's currency; percentages are
 * percent values (45.9 means 45.9 %); dates are ISO calendar dates. Each check names the module
 * and the field, so a skipped module's log line says what an editor has to fix.
 */

const str = v.string();
const nstr = v.nullish(v.string());

/** A calendar day, `2023-03-14`, that exists. */
export const IsoDate = v.pipe(
  v.string('a date must be text such as 2023-03-14'),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, 'a date must look like 2023-03-14'),
  v.check((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'a date must be a real calendar day'),
);

const num = (what: string) => v.pipe(v.number(`${what} must be a number`), v.finite(`${what} must be a finite number`));
const percent = (what: string) => v.pipe(num(what), v.minValue(-100_000, `${what} is out of range`), v.maxValue(100_000, `${what} is out of range`));
/** An ISO 4217 code such as CHF. */
const Currency = v.optional(v.pipe(str, v.regex(/^[A-Z]{3}$/, 'currency must be an ISO code such as CHF')), 'CHF');
const Paragraphs = v.optional(v.array(str), []);
const Slug = (what: string) => v.pipe(v.string(`${what} must be text`), v.regex(/^[a-z0-9][a-z0-9-]{0,80}$/, `${what} must be a slug such as agm-2023 (lowercase letters, digits, dashes)`));

const ascendingDates = <T extends { date: string }>(points: T[]): boolean => points.every((p, i) => i === 0 || points[i - 1]!.date < p.date);

/** A time series point: a day and a value. */
const Point = (what: string) => v.object({ date: IsoDate, value: num(`${what}: every value`) });

/** Dividend policy: the policy text, the payout range and the dividends per fiscal year. */
export const DividendPolicySchema = v.object({
  type: v.literal('dividendPolicy'),
  title: str,
  text: Paragraphs,
  currency: Currency,
  payoutRange: v.nullish(v.pipe(
    v.object({ min: percent('dividendPolicy: payoutRange.min'), max: percent('dividendPolicy: payoutRange.max') }),
    v.check((r) => r.min <= r.max, 'dividendPolicy: payoutRange.min must not exceed payoutRange.max'),
  )),
  dividends: v.pipe(
    v.array(v.object({
      fiscalYear: v.pipe(v.number('dividendPolicy: fiscalYear must be a number'), v.integer('dividendPolicy: fiscalYear must be a whole year')),
      perShare: num('dividendPolicy: perShare'),
      payoutRatio: v.nullish(percent('dividendPolicy: payoutRatio')),
      paymentDate: v.nullish(IsoDate),
    })),
    v.minLength(1, 'dividendPolicy: dividends needs at least one year'),
  ),
});

/** Share distribution: registered shareholders by the size of their holding. */
export const ShareDistributionSchema = v.object({
  type: v.literal('shareDistribution'),
  title: str,
  text: Paragraphs,
  asOf: IsoDate,
  brackets: v.pipe(
    v.array(v.pipe(
      v.object({
        from: v.pipe(num('shareDistribution: from'), v.integer('shareDistribution: from must be a whole number of shares'), v.minValue(1, 'shareDistribution: from must be at least 1')),
        /** Null for the open top bracket ("100’001 and more"). */
        to: v.nullish(v.pipe(num('shareDistribution: to'), v.integer('shareDistribution: to must be a whole number of shares'))),
        shareholders: v.pipe(num('shareDistribution: shareholders'), v.integer('shareDistribution: shareholders must be a whole number'), v.minValue(0, 'shareDistribution: shareholders must not be negative')),
        percentOfShares: percent('shareDistribution: percentOfShares'),
      }),
      v.check((b) => b.to == null || b.to >= b.from, 'shareDistribution: a bracket\'s to must not be below its from'),
    )),
    v.minLength(1, 'shareDistribution: brackets needs at least one row'),
  ),
  /** Shares whose holders are not entered in the share register, as a percentage of all shares. */
  unregisteredPercent: v.nullish(percent('shareDistribution: unregisteredPercent')),
});

/** One line of the key data: text (exchange, ISIN), a number, an amount, a percentage or a date. */
const KeyDataItem = v.variant('kind', [
  v.object({ kind: v.literal('text'), label: str, text: str }),
  v.object({ kind: v.literal('number'), label: str, value: num('keyData: value'), decimals: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(4)), 0) }),
  v.object({ kind: v.literal('currency'), label: str, value: num('keyData: value'), decimals: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(4)), 2) }),
  v.object({ kind: v.literal('percent'), label: str, value: percent('keyData: value'), decimals: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(4)), 1) }),
  v.object({ kind: v.literal('date'), label: str, date: IsoDate }),
], 'keyData: every item needs a kind: text, number, currency, percent or date');

export const KeyDataSchema = v.object({
  type: v.literal('keyData'),
  title: str,
  text: Paragraphs,
  asOf: v.nullish(IsoDate),
  currency: Currency,
  items: v.pipe(v.array(KeyDataItem), v.minLength(1, 'keyData: items needs at least one line')),
});

/** Share price: closing prices over time, drawn as a line chart with a table alternative. */
export const SharePriceSchema = v.object({
  type: v.literal('sharePrice'),
  title: str,
  text: Paragraphs,
  currency: Currency,
  /** The listing the prices are from, e.g. "SIX Swiss Exchange, KARN". */
  listing: nstr,
  points: v.pipe(
    v.array(Point('sharePrice')),
    v.minLength(2, 'sharePrice: points needs at least two prices to draw a line'),
    v.check(ascendingDates, 'sharePrice: points must be in ascending date order without repeats'),
  ),
});

/** Total return: the share against a benchmark, each indexed to 100 at the start. */
export const TotalReturnSchema = v.object({
  type: v.literal('totalReturn'),
  title: str,
  text: Paragraphs,
  series: v.pipe(
    v.array(v.object({
      name: v.pipe(str, v.minLength(1, 'totalReturn: every series needs a name')),
      points: v.pipe(
        v.array(Point('totalReturn')),
        v.minLength(2, 'totalReturn: every series needs at least two points'),
        v.check(ascendingDates, 'totalReturn: points must be in ascending date order without repeats'),
      ),
    })),
    v.minLength(1, 'totalReturn: series needs at least one line'),
    v.maxLength(4, 'totalReturn: at most four series can be told apart without colour'),
    v.check((s) => s.every((x) => x.points.length === s[0]!.points.length && x.points.every((p, i) => p.date === s[0]!.points[i]!.date)),
      'totalReturn: every series must have the same dates (the table lists them side by side)'),
  ),
});

/** Significant shareholders with their share of the capital. */
export const ShareholdersSchema = v.object({
  type: v.literal('shareholders'),
  title: str,
  text: Paragraphs,
  asOf: IsoDate,
  holders: v.pipe(
    v.array(v.object({ name: str, percent: percent('shareholders: percent') })),
    v.minLength(1, 'shareholders: holders needs at least one row'),
  ),
});

/** Financial calendar: dated events, each downloadable as an .ics file. */
export const FinancialCalendarSchema = v.object({
  type: v.literal('financialCalendar'),
  title: str,
  text: Paragraphs,
  events: v.pipe(
    v.array(v.object({ id: Slug('financialCalendar: event id'), date: IsoDate, title: str, location: nstr, description: nstr })),
    v.minLength(1, 'financialCalendar: events needs at least one event'),
    v.check((e) => new Set(e.map((x) => x.id)).size === e.length, 'financialCalendar: event ids must be unique'),
  ),
});

/** A fiscal year as a key of annual figures: "2022". */
const YearKey = v.pipe(v.string(), v.regex(/^\d{4}$/, 'annualFigures: values are keyed by fiscal year, such as "2022"'));

/**
 * Annual figures: several fiscal years side by side. Each row keys its values by year, so a row
 * can never hold more or fewer columns than the table; the columns are every year any row has.
 */
export const AnnualFiguresSchema = v.object({
  type: v.literal('annualFigures'),
  title: str,
  text: Paragraphs,
  currency: Currency,
  /** A note on the unit of amounts, e.g. "in CHF million". */
  unitNote: nstr,
  rows: v.pipe(
    v.array(v.object({
      label: str,
      /** How the values read: amounts in the currency (in the unit of unitNote), plain numbers or percentages. */
      kind: v.picklist(['currency', 'number', 'percent'], 'annualFigures: a row kind must be currency, number or percent'),
      decimals: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(4)), 1),
      values: v.record(YearKey, v.nullable(num('annualFigures: every value'))),
    })),
    v.minLength(1, 'annualFigures: rows needs at least one row'),
    v.check((rows) => new Set(rows.flatMap((r) => Object.keys(r.values))).size >= 2, 'annualFigures: the rows need values for at least two years side by side'),
  ),
});

const FileRef = v.object({ slug: str, title: str, fileName: str, url: str, size: v.number(), locale: str });
const Asset = v.object({ url: str, mimeType: str, alternativeText: nstr });

/** The annual report as a download card with its document thumbnail. */
export const AnnualReportSchema = v.object({
  type: v.literal('annualReport'),
  title: str,
  text: Paragraphs,
  file: FileRef,
  thumbnail: v.nullish(Asset),
});

/** Every investor module variant (appended to ModuleSchema's variant list). */
export const INVESTOR_MODULE_SCHEMAS = [
  DividendPolicySchema,
  ShareDistributionSchema,
  KeyDataSchema,
  SharePriceSchema,
  TotalReturnSchema,
  ShareholdersSchema,
  FinancialCalendarSchema,
  AnnualFiguresSchema,
  AnnualReportSchema,
] as const;
