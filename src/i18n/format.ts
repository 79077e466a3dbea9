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
  return format.format(value);
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
