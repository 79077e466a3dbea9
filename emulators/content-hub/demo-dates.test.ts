import { describe, expect, it } from 'vitest';
import { nextOccurrence, resolveDemoDates, resolveText } from './demo-dates.ts';

const NOV_28_2026 = new Date('2026-11-28T10:00:00Z');

describe('upcoming dates of the demo content', () => {
  it('the next occurrence is strictly after today: later this year, else next year', () => {
    expect(nextOccurrence(12, 10, NOV_28_2026).toISOString().slice(0, 10)).toBe('2026-12-10');
    expect(nextOccurrence(3, 9, NOV_28_2026).toISOString().slice(0, 10)).toBe('2027-03-09');
    expect(nextOccurrence(11, 28, NOV_28_2026).toISOString().slice(0, 10)).toBe('2027-11-28');
  });

  it('a date field becomes an ISO date, a range in text the content language\'s day range, a year token the year', () => {
    expect(resolveText('{{next:03-09}}', 'en', NOV_28_2026)).toBe('2027-03-09');
    expect(resolveText('{{next:03-03..03-05}} – Wire & Cable Days', 'en', NOV_28_2026)).toBe('3–5 March 2027 – Wire & Cable Days');
    expect(resolveText('{{next:03-03..03-05}} – Wire & Cable Days', 'de', NOV_28_2026)).toBe('3.–5. März 2027 – Wire & Cable Days');
    expect(resolveText('{{next:04-14..04-16@en-US}} – Expo', 'en', NOV_28_2026)).toBe('April 14–16, 2027 – Expo');
    expect(resolveText('{{next:05-06@en-US}} – Webinar', 'en', NOV_28_2026)).toBe('May 6, 2027 – Webinar');
    expect(resolveText('Results of the {{nextYear:03-09|-1}} financial year', 'en', NOV_28_2026)).toBe('Results of the 2026 financial year');
    expect(resolveText('annual-results-{{nextYear:03-09}}', 'en', NOV_28_2026)).toBe('annual-results-2027');
    expect(resolveText('No token', 'en', NOV_28_2026)).toBe('No token');
  });

  it('a list of upcoming items is in date order from today; other values are kept', () => {
    const rich = {
      type: 'richText', title: 'Upcoming events',
      blocks: [{ kind: 'list', items: ['{{next:03-03..03-05}} – A', '{{next:12-08..12-09}} – B', '{{next:06-09..06-11}} – C'] }],
      count: 3,
    };
    const accordion = { type: 'accordion', items: [{ title: '{{next:07-15@en-US}} – X', text: 't' }, { title: '{{next:12-01@en-US}} – Y', text: 'u' }] };
    const out = resolveDemoDates(rich, 'en', NOV_28_2026);
    expect(out.blocks[0]!.items).toEqual(['8–9 December 2026 – B', '3–5 March 2027 – A', '9–11 June 2027 – C']);
    expect(out.count).toBe(3);
    expect(resolveDemoDates(accordion, 'en', NOV_28_2026).items.map((i) => i.title)).toEqual(['December 1, 2026 – Y', 'July 15, 2027 – X']);
  });

  it('upcoming stays upcoming on any later day', () => {
    for (const day of ['2027-03-04', '2031-07-01', '2040-12-31']) {
      const now = new Date(`${day}T12:00:00Z`);
      expect(resolveText('{{next:03-09}}', 'en', now) > day).toBe(true);
    }
  });
});
