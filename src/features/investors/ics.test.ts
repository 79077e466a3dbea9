import { describe, expect, it } from 'vitest';
import { buildIcs, escapeText, foldLine, icsDate, icsStamp, nextDay } from './ics.ts';

const event = {
  uid: 'general-meeting-2023.page1@komax.example',
  date: '2023-04-12',
  summary: 'Annual General Meeting',
  location: 'KKL Luzern, Lucerne; Switzerland',
  description: 'Vote on the dividend\nof CHF 5.00',
  stamp: new Date('2026-11-26T09:00:00.000Z'),
  language: 'en',
};

describe('buildIcs', () => {
  const ics = buildIcs(event);
  const lines = ics.split('\r\n');

  it('ends every line with CRLF and has no bare LF', () => {
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it('is one VCALENDAR with one all-day VEVENT', () => {
    expect(lines.slice(0, 2)).toEqual(['BEGIN:VCALENDAR', 'VERSION:2.0']);
    expect(lines).toContain('PRODID:-//Komax//Investor relations//EN');
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(lines).toContain('UID:general-meeting-2023.page1@komax.example');
    expect(lines).toContain('DTSTAMP:20261126T090000Z');
    expect(lines).toContain('DTSTART;VALUE=DATE:20230412');
    expect(lines).toContain('DTEND;VALUE=DATE:20230413');
    expect(lines.at(-2)).toBe('END:VCALENDAR');
  });

  it('escapes text values and tags their language', () => {
    expect(lines).toContain('SUMMARY;LANGUAGE=en:Annual General Meeting');
    expect(lines).toContain('LOCATION;LANGUAGE=en:KKL Luzern\\, Lucerne\\; Switzerland');
    expect(lines).toContain('DESCRIPTION;LANGUAGE=en:Vote on the dividend\\nof CHF 5.00');
  });

  it('leaves out empty optional properties', () => {
    const plain = buildIcs({ uid: 'x@y', date: '2023-03-14', summary: 'Results', stamp: new Date(0) });
    expect(plain).not.toMatch(/LOCATION|DESCRIPTION|LANGUAGE|URL/);
    expect(plain).toContain('DTSTAMP:19700101T000000Z\r\n');
  });

  it('refuses a day that does not exist', () => {
    expect(() => buildIcs({ ...event, date: '2023-02-30' })).toThrow(/Not a calendar day/);
  });
});

describe('escapeText', () => {
  it('escapes backslash first, then ; , and line breaks', () => {
    expect(escapeText('a\\b;c,d\r\ne\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
  });
});

describe('foldLine', () => {
  it('keeps short lines', () => {
    expect(foldLine('SUMMARY:short')).toBe('SUMMARY:short');
  });
  it('folds at 75 octets with a leading space on continuation lines', () => {
    const folded = foldLine(`DESCRIPTION:${'x'.repeat(200)}`);
    const parts = folded.split('\r\n');
    expect(parts[0]).toHaveLength(75);
    expect(parts.slice(1).every((p) => p.startsWith(' ') && Buffer.byteLength(p) <= 75)).toBe(true);
    expect(parts.map((p, i) => (i ? p.slice(1) : p)).join('')).toBe(`DESCRIPTION:${'x'.repeat(200)}`);
  });
  it('counts octets, not characters, and never splits a character', () => {
    const text = `SUMMARY:${'ä'.repeat(60)}`; // 8 + 120 octets
    const parts = foldLine(text).split('\r\n');
    expect(parts.every((p) => Buffer.byteLength(p) <= 75)).toBe(true);
    expect(parts.map((p, i) => (i ? p.slice(1) : p)).join('')).toBe(text);
  });
});

describe('dates', () => {
  it('writes DATE values and the exclusive end across month and year ends', () => {
    expect(icsDate('2023-03-14')).toBe('20230314');
    expect(nextDay('2023-02-28')).toBe('2023-03-01');
    expect(nextDay('2024-02-28')).toBe('2024-02-29');
    expect(nextDay('2023-12-31')).toBe('2024-01-01');
    expect(icsStamp(new Date('2023-03-14T08:05:09.123Z'))).toBe('20230314T080509Z');
    expect(() => icsDate('14.03.2023')).toThrow(RangeError);
  });
});
