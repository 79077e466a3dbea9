import type { TFunction } from 'i18next';
import type { SearchBoxLabels } from './SearchBox.tsx';
import type { SearchResultsLabels } from './SearchResults.tsx';

/** The strings the search islands need, in the page's language (placeholders stay for the island). */
export function searchLabels(t: TFunction): { box: SearchBoxLabels; results: SearchResultsLabels } {
  const keep = { query: '{{query}}', count: '{{count}}', page: '{{page}}', pages: '{{pages}}' };
  return {
    box: {
      label: t('search.label'),
      placeholder: t('search.placeholder'),
      submit: t('search.submit'),
      suggestions: t('search.suggestions'),
      suggestionCount: t('search.suggestionCount', keep),
    },
    results: {
      prompt: t('search.prompt'),
      loading: t('search.loading'),
      resultsFor: t('search.resultsFor', keep),
      count: t('search.count', keep),
      empty: t('search.empty', keep),
      error: t('search.error'),
      errorType: t('flash.error'),
      dismiss: t('flash.dismiss'),
      retry: t('search.retry'),
      pagination: t('search.pagination'),
      previous: t('search.previous'),
      next: t('search.next'),
      pageOf: t('search.pageOf', keep),
    },
  };
}
