/**
 * iCalendar (RFC 5545) files for financial-calendar events: one all-day VEVENT per file. Pure: the
 * API handler feeds it the event from the content hub.
 */

export interface CalendarEvent {
  /** Globally unique and stable for the event (RFC 5545 §3.8.4.7), e.g. `agm-2023.<page id>@komax.example`. */
  uid: string;
  /** A calendar day, `2023-04-12`: the event lasts that whole day. */
  date: string;
  summary: string;
  description?: string | null;
  location?: string | null;
  /** Where the event is described (the investors page). */
  url?: string | null;
  /** When the information was last changed (DTSTAMP), any instant. */
  stamp: Date;
  /** The language of the texts (RFC 5545 LANGUAGE parameter), e.g. `de-CH`. */
  language?: string | null;
}

const CRLF = '\r\n';
/** Octets per content line, without the line break (RFC 5545 §3.1). */
const LINE_OCTETS = 75;

/** TEXT value escaping (RFC 5545 §3.3.11): backslash, semicolon, comma and line breaks. */
export function escapeText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * A content line folded at 75 octets (RFC 5545 §3.1): continuation lines start with one space;
 * a multi-byte UTF-8 character is never split.
 */
export function foldLine(line: string): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = encoder.encode(ch).length;
    // The first line may hold 75 octets; the others 74 after their leading space.
    const limit = parts.length === 0 ? LINE_OCTETS : LINE_OCTETS - 1;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join(`${CRLF} `);
}

/** `2023-03-14` → `20230314` (a DATE value), checked to be a real day. */
export function icsDate(isoDay: string): string {
  const d = new Date(`${isoDay}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDay) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== isoDay) {
    throw new RangeError(`Not a calendar day: ${isoDay}`);
  }
  return isoDay.replace(/-/g, '');
}

/** The day after a calendar day (DTEND of an all-day event is exclusive). */
export function nextDay(isoDay: string): string {
  const d = new Date(`${isoDay}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** A UTC DATE-TIME: `20260209T214804Z`. */
export function icsStamp(instant: Date): string {
  return instant.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
}

/** A property parameter value, quoted when it holds a separator (RFC 5545 §3.2); quotes themselves are dropped. */
const paramValue = (value: string) => {
  const clean = value.replace(/"/g, '');
  return /[;:,]/.test(clean) ? `"${clean}"` : clean;
};

/** One VCALENDAR with one all-day VEVENT, CRLF line endings, folded and escaped. */
export function buildIcs(event: CalendarEvent): string {
  const lang = event.language ? `;LANGUAGE=${paramValue(event.language)}` : '';
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Komax//Investor relations//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${icsStamp(event.stamp)}`,
    `DTSTART;VALUE=DATE:${icsDate(event.date)}`,
    `DTEND;VALUE=DATE:${icsDate(nextDay(event.date))}`,
    `SUMMARY${lang}:${escapeText(event.summary)}`,
    ...(event.description ? [`DESCRIPTION${lang}:${escapeText(event.description)}`] : []),
    ...(event.location ? [`LOCATION${lang}:${escapeText(event.location)}`] : []),
    ...(event.url ? [`URL:${event.url}`] : []),
    'TRANSP:TRANSPARENT',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}
