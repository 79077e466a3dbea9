import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import { INVALID_KEY, REQUIRED_KEYS, TOO_LONG_KEY } from '../features/editorial/feedback-schema.ts';
import { MESSAGE_KEYS as FEEDBACK_KEYS } from '../features/editorial/FeedbackForm.tsx';
import { fixedT } from './index.ts';
import { fill, pickMessages } from './island.ts';

describe('pickMessages', () => {
  it('translates exactly the given keys and leaves placeholders for the island', () => {
    const t = fixedT('en');
    expect(pickMessages(t, ['search.count', 'basket.open'] as const)).toEqual({ 'search.count': 'Results: {{count}}', 'basket.open': 'View comparison ({{count}})' });
  });

  it('translates into the language of t', () => {
    const messages = pickMessages(fixedT('de'), ['search.title'] as const);
    expect(messages['search.title']).toBe(fixedT('de')('search.title'));
  });
});

describe('fill', () => {
  it('fills named placeholders and keeps unknown ones', () => {
    expect(fill('Page {{page}} of {{ pages }}', { page: 2, pages: 5 })).toBe('Page 2 of 5');
    expect(fill('Hello {{name}}', {})).toBe('Hello {{name}}');
    expect(fill('{{query}}', { query: '{{count}}' })).toBe('{{count}}');
  });
});

describe('island message keys', () => {
  const islands = import.meta.glob<{ MESSAGE_KEYS?: readonly string[] }>('../**/*.tsx', { eager: true });
  const withKeys = Object.entries(islands).filter(([, m]) => Array.isArray(m.MESSAGE_KEYS));

  it('are exported by every island that shows text', () => {
    expect(withKeys.map(([path]) => path.replace(/^.*\//, '')).sort()).toEqual([
      'AccountSettings.tsx', 'AddToComparison.tsx', 'BasketDrawer.tsx', 'ComparisonApp.tsx', 'ComparisonGroup.tsx', 'Dashboard.tsx', 'FeedbackForm.tsx',
      'Inventory.tsx', 'MeasurementSwitch.tsx', 'NewTicket.tsx', 'NewsFeedList.tsx', 'SearchBox.tsx', 'TicketDetail.tsx',
      'TicketList.tsx', 'UserAdminDetail.tsx', 'UserAdminList.tsx', 'WireFlow.tsx',
    ]);
  });

  it('exist in the source locale', () => {
    for (const [path, m] of withKeys) {
      expect(m.MESSAGE_KEYS!.filter((k) => !(k in en)), path).toEqual([]);
    }
  });

  it('cover every message the feedback schema can report', () => {
    expect(FEEDBACK_KEYS).toEqual(expect.arrayContaining([...Object.values(REQUIRED_KEYS), TOO_LONG_KEY, INVALID_KEY]));
  });
});
