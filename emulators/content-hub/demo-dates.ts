/**
 * Upcoming dates in the demo content that never rot. Past events of the demo (the spec's 2023
 * financial calendar, the fairs the media releases report on) keep their dates; what the demo
 * presents as upcoming (the events calendar, the next financial dates, webinars) is written as a
 * token and answered as the next occurrence after the day the content is asked for, the way an
 * editor keeps a live site's calendar current. The site sees plain dates and text.
 *
 * Tokens (in any string of a page's title, description or modules):
 * - `{{next:MM-DD}}` → the ISO date of the next MM-DD after today, e.g. `2027-03-09`;
 * - `{{next:MM-DD..MM-DD}}` → that day range as text in the content language, e.g. `3–5 March 2027`
 *   (`3.–5. März 2027` in German); `{{next:MM-DD..MM-DD@en-US}}` names the formatting locale;
 * - `{{next:MM-DD@en-US}}` inside text → the single day as text in that locale;
 * - `{{nextYear:MM-DD}}` → the year of that occurrence; `{{nextYear:MM-DD|-1}}` a year before it
 *   (the financial year whose results are presented then).
 * A list whose items all start with a `{{next:…}}` token (strings, or objects whose title does) is
 * put in date order.
 */

const TOKEN = /\{\{(next|nextYear):(\d{2})-(\d{2})(?:\.\.(\d{2})-(\d{2}))?(?:@([A-Za-z-]+))?(?:\|([+-]\d+))?\}\}/g;
const LEADING = /^\{\{next:(\d{2})-(\d{2})/;

/** How each content language writes a day (British English, Swiss German as the site does). */
const FORMAT_LOCALE: Record<string, string> = { en: 'en-GB', de: 'de-CH' };

/** The next date (UTC) with this month and day strictly after `now`'s day. */
export function nextOccurrence(month: number, day: number, now: Date): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  let year = now.getUTCFullYear();
  while (Date.UTC(year, month - 1, day) <= today) year += 1;
  return new Date(Date.UTC(year, month - 1, day));
}

const iso = (d: Date) => d.toISOString().slice(0, 10);

function formatter(language: string, locale?: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(locale ?? FORMAT_LOCALE[language] ?? language, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** A string with every token replaced (a string that is only `{{next:MM-DD}}` becomes the ISO date). */
export function resolveText(text: string, language: string, now: Date): string {
  if (!text.includes('{{')) return text;
  const whole = text.trim();
  return text.replace(TOKEN, (match, kind: string, m1: string, d1: string, m2?: string, d2?: string, locale?: string, shift?: string) => {
    const start = nextOccurrence(Number(m1), Number(d1), now);
    if (kind === 'nextYear') return String(start.getUTCFullYear() + Number(shift ?? 0));
    if (m2 && d2) {
      const end = new Date(Date.UTC(start.getUTCFullYear() + (Number(m2) < Number(m1) ? 1 : 0), Number(m2) - 1, Number(d2)));
      // ICU writes thin spaces around the range dash in some locales and versions; the demo texts write none.
      return formatter(language, locale).formatRange(start, end).replace(/\s*–\s*/g, '–');
    }
    return match === whole && !locale ? iso(start) : formatter(language, locale).format(start);
  });
}

/** The date a list item starts with (a string or an object's title), for putting a list in date order. */
function leadingDate(item: unknown, now: Date): number | null {
  const text = typeof item === 'string' ? item : item && typeof item === 'object' && typeof (item as { title?: unknown }).title === 'string' ? (item as { title: string }).title : null;
  const m = text ? LEADING.exec(text) : null;
  return m ? nextOccurrence(Number(m[1]), Number(m[2]), now).getTime() : null;
}

/** The content with every token resolved for a language and day. */
export function resolveDemoDates<T>(value: T, language: string, now: Date = new Date()): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return resolveText(v, language, now);
    if (Array.isArray(v)) {
      const dates = v.map((item) => leadingDate(item, now));
      const ordered = v.length > 1 && dates.every((d) => d !== null)
        ? v.map((item, i) => ({ item, at: dates[i]! })).sort((a, b) => a.at - b.at).map((x) => x.item)
        : v;
      return ordered.map(walk);
    }
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
