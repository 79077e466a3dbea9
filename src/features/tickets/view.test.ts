import { describe, expect, it } from 'vitest';
import { formatLocale } from '../../i18n/index.ts';
import { ariaSort, DEFAULT_LIST_STATE, formatDate, listStateQuery, nextSort, parseListState, statusesOfFilter, statusFilterValue, ticketQuery } from './view.ts';

describe('the ticket list state in the address', () => {
  it('round-trips filter, search, sort and cursor', () => {
    const state = { ...DEFAULT_LIST_STATE, status: ['NEW' as const, 'CLOSED' as const], search: 'crimp', sort: 'SUBJECT' as const, direction: 'ASC' as const, after: 'Y3Vyc29y' };
    const query = listStateQuery(state);
    expect(query).toBe('?status=NEW%2CCLOSED&q=crimp&sort=SUBJECT&dir=ASC&after=Y3Vyc29y');
    expect(parseListState(query)).toEqual(state);
  });

  it('drops what it does not know and keeps the defaults out of the address', () => {
    expect(parseListState('?status=NEW,BOGUS,NEW&sort=DROP&dir=UP&before=%3Cx%3E')).toEqual({ ...DEFAULT_LIST_STATE, status: ['NEW'] });
    expect(listStateQuery(DEFAULT_LIST_STATE)).toBe('');
  });

  it('asks the service for the page: forwards with after, backwards with before', () => {
    expect(ticketQuery({ ...DEFAULT_LIST_STATE, before: 'b' })).toEqual({ status: [], search: '', sort: { field: 'CREATED_ON', direction: 'DESC' }, pageSize: 20, before: 'b' });
  });

  it('sorts by a column: the same column flips, a new one starts in its natural direction, paging restarts', () => {
    const byDate = nextSort({ ...DEFAULT_LIST_STATE, after: 'x' }, 'CREATED_ON');
    expect(byDate).toMatchObject({ sort: 'CREATED_ON', direction: 'ASC', after: null });
    expect(nextSort(DEFAULT_LIST_STATE, 'SUBJECT')).toMatchObject({ sort: 'SUBJECT', direction: 'ASC' });
    expect(ariaSort(DEFAULT_LIST_STATE, 'CREATED_ON')).toBe('descending');
    expect(ariaSort(DEFAULT_LIST_STATE, 'STATUS')).toBe('none');
  });
});

describe('formatDate', () => {
  it('formats German as de-CH and English as en', () => {
    expect(formatDate('2026-03-05T10:00:00.000Z', formatLocale('de'))).toBe('05.03.2026');
    expect(formatDate('2026-03-05T10:00:00.000Z', formatLocale('en'))).toBe('Mar 5, 2026');
    expect(formatDate(null, 'en')).toBe('');
  });
});

describe('the status filter', () => {
  it('offers "all open": every status but closed, and recognises it in any order', () => {
    expect(statusesOfFilter('open')).toEqual(['NEW', 'IN_PROGRESS', 'WAITING_FOR_CUSTOMER']);
    expect(statusFilterValue(['WAITING_FOR_CUSTOMER', 'NEW', 'IN_PROGRESS'])).toBe('open');
    expect(statusFilterValue(parseListState('?status=NEW,IN_PROGRESS,WAITING_FOR_CUSTOMER').status)).toBe('open');
  });

  it('one status is itself; none or an unknown value is all', () => {
    expect(statusesOfFilter('CLOSED')).toEqual(['CLOSED']);
    expect(statusFilterValue(['CLOSED'])).toBe('CLOSED');
    expect(statusesOfFilter('')).toEqual([]);
    expect(statusesOfFilter('BOGUS')).toEqual([]);
    expect(statusFilterValue([])).toBe('');
  });
});
