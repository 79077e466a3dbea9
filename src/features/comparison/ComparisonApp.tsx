import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { PRODUCTS_PATH } from '../../site/paths.ts';
import type { MeasurementSystem } from '../../site/types.ts';
import { basketSlugs, newKey } from '../basket/basket.ts';
import { $basket, loadBasket, replaceBasket } from '../basket/store.ts';
import type { IslandMessages } from '../../i18n/island.ts';
import { MeasurementSwitch, MESSAGE_KEYS as SWITCH_MESSAGE_KEYS } from '../technical-data/MeasurementSwitch.tsx';
import { useHydrated } from '../../components/ui/use-hydrated.ts';
import { useMeasurement } from '../technical-data/use-measurement.ts';
import { ComparisonGroup, MESSAGE_KEYS as GROUP_MESSAGE_KEYS } from './ComparisonGroup.tsx';
import { decodeShare, SHARE_PARAM, shareUrl } from './share.ts';
import type { ComparisonApiProduct } from './model.ts';
import { browserLogger } from '../platform/log.ts';

const log = browserLogger('comparison');

/** The locale keys this island shows (see i18n/island.ts). */
export const MESSAGE_KEYS = [
  ...GROUP_MESSAGE_KEYS, ...SWITCH_MESSAGE_KEYS, 'comparison.loading', 'comparison.empty', 'comparison.browse', 'comparison.shareLabel', 'comparison.copy', 'comparison.copied', 'comparison.copyFailed', 'comparison.error',
] as const;
export type ComparisonMessages = IslandMessages<typeof MESSAGE_KEYS>;

interface Props {
  language: string;
  prefix: string;
  /** The Intl locale of the page's numbers (de-CH for German). */
  numberLocale: string;
  rendered: MeasurementSystem;
  messages: ComparisonMessages;
}

/**
 * The product comparison (spec §4): the basket's classifications side by side, details fetched
 * once per product, placeholders until they arrive. A `?basket=` link fills the comparison.
 */
export function ComparisonApp({ language, prefix, numberLocale, rendered, messages: m }: Props) {
  const hydrated = useHydrated();
  const system = useMeasurement(rendered);
  const stored = useStore($basket);
  const basket = hydrated ? stored : [];
  const [details, setDetails] = useState<Record<string, ComparisonApiProduct | null>>({});
  const [failed, setFailed] = useState(false);
  const [hidden, setHidden] = useState<Record<string, boolean>>({});
  const [copyState, setCopyState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const pending = useRef(new Set<string>());
  const shareInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    loadBasket({ language, prefix });
    const params = new URLSearchParams(location.search);
    const shared = params.get(SHARE_PARAM);
    if (shared !== null) {
      replaceBasket(decodeShare(shared, newKey));
      params.delete(SHARE_PARAM);
      const rest = params.toString();
      history.replaceState(history.state, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
    }
  }, [language, prefix]);

  useEffect(() => {
    if (!hydrated) return;
    const missing = basketSlugs(basket).filter((s) => !(s in details) && !pending.current.has(s));
    if (missing.length === 0) return;
    missing.forEach((s) => pending.current.add(s));
    fetch(`/api/catalogue/comparison?${new URLSearchParams({ language, slugs: missing.join(',') })}`)
      .then(async (res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const body = (await res.json()) as { products: ComparisonApiProduct[] };
        setDetails((prev) => {
          const next = { ...prev };
          for (const s of missing) next[s] = body.products.find((p) => p.slug === s) ?? null;
          return next;
        });
        setFailed(false);
      })
      .catch((err: unknown) => {
        log.warn((err as Error).message);
        setFailed(true);
      })
      .finally(() => missing.forEach((s) => pending.current.delete(s)));
  }, [basket, hydrated, details, language]);

  const link = hydrated ? shareUrl(location.origin, prefix, basket) : '';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopyState('copied');
    } catch {
      shareInput.current?.select();
      setCopyState('failed');
    }
  };

  if (!hydrated) {
    return <div className="comparison-loading" aria-busy="true"><span className="skeleton skeleton--block" aria-hidden="true" />{m['comparison.loading']}</div>;
  }

  return (
    <div className="comparison">
      <div className="comparison__toolbar">
        <MeasurementSwitch value={system} messages={m} name="comparison-system" />
        {basket.length > 0 && (
          <div className="comparison__share">
            <label htmlFor="comparison-share">{m['comparison.shareLabel']}</label>
            <div className="comparison__share-row">
              <input id="comparison-share" ref={shareInput} type="text" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
              <button type="button" className="btn btn--secondary" onClick={() => void copy()}>{m['comparison.copy']}</button>
            </div>
            <p className="comparison__share-status" role="status">
              {copyState === 'copied' ? m['comparison.copied'] : copyState === 'failed' ? m['comparison.copyFailed'] : ''}
            </p>
          </div>
        )}
      </div>
      {failed && <p className="flash flash--error" role="alert">{m['comparison.error']}</p>}
      {basket.length === 0 ? (
        <div className="comparison__empty">
          <p>{m['comparison.empty']}</p>
          <a className="btn" href={`${prefix}${PRODUCTS_PATH}`}>{m['comparison.browse']}</a>
        </div>
      ) : basket.map((g) => (
        <ComparisonGroup
          key={g.slug}
          group={g}
          details={details}
          system={system}
          hideIdentical={!!hidden[g.slug]}
          onHideIdentical={(hide) => setHidden((prev) => ({ ...prev, [g.slug]: hide }))}
          prefix={prefix}
          numberLocale={numberLocale}
          messages={m}
        />
      ))}
    </div>
  );
}
