const formats = new Map<string, Intl.NumberFormat>();
const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** Byte sizes for people: '2.4 MB' in the page's number format. */
export function formatFileSize(bytes: number, locale: string): string {
  let value = bytes;
  let i = 0;
  while (value >= 1000 && i < UNITS.length - 1) { value /= 1000; i++; }
  const key = `${locale}|${i}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'unit', unit: UNITS[i], unitDisplay: 'short', maximumFractionDigits: i === 0 ? 0 : 1 });
    formats.set(key, format);
  }
  return typographic(format.format(value));
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A long-date formatter for a locale, made once (Intl constructors are costly on every render). */
export function longDateFormat(locale: string): Intl.DateTimeFormat {
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'long' });
    dateFormats.set(locale, format);
  }
  return format;
}

/** A date in the page's format (German as de-CH). */
export function formatDate(iso: string, locale: string): string {
  return longDateFormat(locale).format(new Date(iso));
}

// Investor figures (issue 14): numbers, amounts, percentages and calendar days in the page's
// locale (German as de-CH: 1’234.5). Formatters are made once per locale and option set.

/**
 * Swiss grouping in the spec's typography: newer ICU data group de-CH with a straight apostrophe
 * (1'234.5); the spec writes the typographic one (1’234.5). No other character of a formatted
 * number is an apostrophe, so the swap touches only the grouping.
 */
const typographic = (text: string) => text.replaceAll("'", '’');

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const id = `${locale}|${key}`;
  let format = numberFormats.get(id);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(id, format);
  }
  return format;
}

/** A number with a fixed count of decimals: 1234.5 → '1’234.5' (de-CH), '1,234.5' (en). */
export function formatNumber(value: number, locale: string, decimals = 0): string {
  return typographic(numberFormat(locale, `n${decimals}`, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value));
}

/** An amount in a currency: 5 → 'CHF 5.00' (en, de-CH), '5,00 CHF' (fr). */
export function formatCurrency(value: number, locale: string, currency: string, decimals = 2): string {
  return typographic(numberFormat(locale, `c${currency}${decimals}`, { style: 'currency', currency, minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value));
}

/** A percentage given as percent (45.9 → '45.9%' in en, '45,9 %' in fr). */
export function formatPercent(percent: number, locale: string, decimals = 1): string {
  // Scaled here rather than by Intl's percent style on value / 100, so 45.9 never reads 45.899….
  const scaled = Math.round(percent * 10 ** decimals) / 10 ** (decimals + 2);
  return typographic(numberFormat(locale, `p${decimals}`, { style: 'percent', minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(scaled));
}

// Catalogue readings (issue 29): the PIM writes numbers plainly ('1.4', '5200', '0.05 – 2.5',
// '450 × 250 × 300'); the page shows them in its locale. Units stay as the PIM writes them: most
// (mm², AWG, dB(A), pcs/h, kN, MΩ, rpm, bar …) are not units Intl knows, and one table must not
// mix Intl's unit names with the PIM's.

/** One plain number of a reading: digits, optionally a point and decimals, no grouping. */
const PLAIN_NUMBER = /\d+(?:\.\d+)?/g;
/** A reading made only of numbers and the signs between them (ranges, dimensions, gauges like 4/0, 10×); anything else is text. */
const NUMERIC_READING = /^[\d.\s–—\-−×x/±~≈<>≤≥+]*\d[\d.\s–—\-−×x/±~≈<>≤≥+]*$/u;

/**
 * A catalogue reading in the page's number format, each number with the decimals it was written
 * with; a reading with words in it (a model, a norm, 'Cloud (SaaS)') is left as it is.
 * @example formatReading('0.05 – 2.5', 'fr') // '0,05 – 2,5'
 * @example formatReading('5200', 'de-CH') // '5’200'
 * @example formatReading('EN 60204-1', 'de-CH') // 'EN 60204-1'
 */
export function formatReading(value: string, locale: string): string {
  if (!NUMERIC_READING.test(value)) return value;
  return value.replace(PLAIN_NUMBER, (n) => {
    const point = n.indexOf('.');
    return formatNumber(Number(n), locale, point < 0 ? 0 : n.length - point - 1);
  });
}

/**
 * A reading with its unit ('1.4' 'kg' → '1,4 kg' in fr), joined by a no-break space so the two
 * never wrap apart; without a unit, the reading alone.
 */
export function formatMeasurement(value: string, unit: string | null | undefined, locale: string): string {
  const reading = formatReading(value, locale);
  return unit ? `${reading}\u00a0${unit}` : reading;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();
function dayFormat(locale: string, key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const id = `${locale}|${key}`;
  let format = dayFormats.get(id);
  if (!format) {
    // Calendar days are UTC midnights: formatted in UTC, so no time zone moves them a day.
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
    dayFormats.set(id, format);
  }
  return format;
}

const utcDay = (isoDay: string) => new Date(`${isoDay.slice(0, 10)}T00:00:00Z`);

/** A calendar day ('2023-03-14'): 'March 14, 2023' (en), '14. März 2023' (de-CH), '14 mars 2023' (fr). */
export function formatDay(isoDay: string, locale: string): string {
  return dayFormat(locale, 'long', { dateStyle: 'long' }).format(utcDay(isoDay));
}

/** The month of a calendar day, short: 'Jan 2021' (en), 'Jan. 2021' (de-CH), '2021年1月' (ja). */
export function formatMonth(isoDay: string, locale: string): string {
  return dayFormat(locale, 'month', { month: 'short', year: 'numeric' }).format(utcDay(isoDay));
}

/** A compact date for chart axes: 'Jan 21'-like, in the locale's order. */
export function formatAxisMonth(isoDay: string, locale: string): string {
  return dayFormat(locale, 'axis', { month: 'short', year: '2-digit' }).format(utcDay(isoDay));
}
