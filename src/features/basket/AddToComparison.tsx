import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { COMPARISON_PATH } from '../../site/paths.ts';
import { useHydrated } from '../../components/ui/use-hydrated.ts';
import { hasSlug } from './basket.ts';
import { fill, type IslandMessages } from '../../i18n/island.ts';
import { $basket, addToBasket, loadBasket, removeProductFromBasket } from './store.ts';
import type { BasketSummary } from './view.ts';

/** The locale keys this island shows (see i18n/island.ts). */
export const MESSAGE_KEYS = [
  'basket.add', 'basket.remove', 'basket.open',
] as const;
export type AddToComparisonMessages = IslandMessages<typeof MESSAGE_KEYS>;

interface Props {
  summary: BasketSummary;
  /** The variant a new comparison entry starts with (the first), or null. */
  variantId: string | null;
  language: string;
  prefix: string;
  messages: AddToComparisonMessages;
}

/**
 * Adds the product to the comparison basket, or takes every instance of it out again. Hydrates on
 * the first interaction, or at once when the stored basket holds something (badge.ts wakes it).
 */
export function AddToComparison({ summary, variantId, language, prefix, messages: m }: Props) {
  const hydrated = useHydrated();
  const basket = useStore($basket);
  useEffect(() => loadBasket({ language, prefix }), [language, prefix]);
  const inBasket = hydrated && hasSlug(basket, summary.slug);
  const count = hydrated ? basket.reduce((n, g) => n + g.products.length, 0) : 0;
  return (
    <div className="add-to-comparison">
      <button
        type="button"
        className={`btn${inBasket ? ' btn--secondary' : ''}`}
        onClick={() => {
          // Decided from the store, not the render: a click replayed right after hydration comes
          // before the first effect has run.
          loadBasket({ language, prefix });
          if (hasSlug($basket.get(), summary.slug)) removeProductFromBasket(summary.slug);
          else addToBasket({ slug: summary.slug, variantId, classificationSlug: summary.classification.slug, name: summary.name }, { summary });
        }}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          {inBasket ? <path d="M5 12h14" /> : <path d="M12 5v14M5 12h14" />}
        </svg>
        {inBasket ? m['basket.remove'] : m['basket.add']}
      </button>
      {inBasket && <a className="add-to-comparison__link" href={`${prefix}${COMPARISON_PATH}`}>{fill(m['basket.open'], { count })}</a>}
    </div>
  );
}
