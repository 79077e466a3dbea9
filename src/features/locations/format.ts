import { WEEKDAYS, type OpeningHours } from '../../lib/content/locations/types.ts';

/** A Monday (2024-01-01) as a UTC date: weekday `i` (0 = Monday) is this plus i days. */
const MONDAY = Date.UTC(2024, 0, 1);

// A formatter is costly to make (about 50 µs) and a directory page formats hundreds of entries.
const formatters = new Map<string, { day: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();
function formattersOf(locale: string) {
  let f = formatters.get(locale);
  if (!f) {
    f = {
      day: new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }),
      time: new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }),
    };
    formatters.set(locale, f);
  }
  return f;
}

/** The opening hours as the page shows them, in the page's locale: days ("Mon–Fri") and times ("08:00–17:00"). */
export function formatOpeningHours(hours: OpeningHours, locale: string): { days: string; times: string } {
  const { day, time } = formattersOf(locale);
  const dayName = (d: OpeningHours['from']) => day.format(MONDAY + WEEKDAYS.indexOf(d) * 86_400_000);
  const clock = (hhmm: string) => {
    const [h, m] = hhmm.split(':').map(Number);
    return time.format(Date.UTC(2024, 0, 1, h, m));
  };
  return {
    days: hours.from === hours.to ? dayName(hours.from) : `${dayName(hours.from)}–${dayName(hours.to)}`,
    times: `${clock(hours.opens)}–${clock(hours.closes)}`,
  };
}

/** A phone number as a `tel:` URI (spaces dropped). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/\s+/g, '')}`;
}

/** Country names in the page's locale (`Intl.DisplayNames`), the code when the runtime has no name. */
export function countryNamer(locale: string): (code: string) => string {
  const names = new Intl.DisplayNames([locale, 'en'], { type: 'region' });
  return (code) => {
    try {
      return names.of(code) ?? code;
    } catch {
      return code;
    }
  };
}
