import { useStore } from '@nanostores/react';
import { useEffect, useRef } from 'react';
import { FlashMessage } from '../../components/ui/FlashMessage.tsx';
import { Icon } from '../../components/ui/Icon.tsx';
import { IMAGE_PRESETS } from '../../components/ui/image-presets.ts';
import { useHydrated } from '../../components/ui/use-hydrated.ts';
import { COMPARISON_PATH } from '../../site/paths.ts';
import type { MeasurementSystem } from '../../site/types.ts';
import { initMeasurement } from '../technical-data/measurement.ts';
import { fill, type IslandMessages } from '../../i18n/island.ts';
import {
  $basketView, $lastAdded, dismissNotice, loadBasket, removeClassificationFromBasket, removeFromBasket,
} from './store.ts';

/** The locale keys this island shows (see i18n/island.ts). */
export const MESSAGE_KEYS = [
  'basket.title', 'basket.close', 'basket.empty', 'basket.compare', 'basket.removeItem', 'basket.removeGroup', 'basket.added', 'basket.loading', 'flash.dismiss', 'flash.success',
] as const;
export type BasketDrawerMessages = IslandMessages<typeof MESSAGE_KEYS>;

interface Props {
  language: string;
  prefix: string;
  rendered: MeasurementSystem;
  messages: BasketDrawerMessages;
}

/**
 * The comparison basket on every page of the main site: the drawer with the products by
 * classification, and the notification after an add. The floating button that opens the drawer
 * is server-rendered beside this island (ComparisonBasket.astro, badge.ts), so an empty basket
 * loads no framework code.
 */
export function BasketDrawer({ language, prefix, rendered, messages: m }: Props) {
  const hydrated = useHydrated();
  const view = useStore($basketView);
  const lastAdded = useStore($lastAdded);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    initMeasurement(rendered);
    loadBasket({ language, prefix });
  }, [language, prefix, rendered]);
  const groups = hydrated ? view : [];
  const count = groups.reduce((n, g) => n + g.products.length, 0);
  // Closed when the visitor empties the basket, not on the first render: a click on the floating
  // button while the island hydrates opens the server-rendered dialog, and the render before the
  // stored basket is read (count 0) must not shut it again.
  const previousCount = useRef(count);
  useEffect(() => {
    if (previousCount.current > 0 && count === 0 && dialog.current?.open) dialog.current.close();
    previousCount.current = count;
  }, [count]);

  return (
    <>
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a click on the backdrop is a pointer shortcut; Escape (native to <dialog>) and the close button serve the keyboard */}
      <dialog ref={dialog} id="basket-drawer" className="basket-drawer" aria-labelledby="basket-drawer-title" onClick={(e) => { if (e.target === dialog.current) dialog.current?.close(); }}>
        <div className="basket-drawer__head">
          <h2 id="basket-drawer-title">{m['basket.title']}</h2>
          <button type="button" className="basket-drawer__close" onClick={() => dialog.current?.close()}>
            <Icon name="close" /><span className="visually-hidden">{m['basket.close']}</span>
          </button>
        </div>
        {groups.length === 0 ? <p className="basket-drawer__empty">{m['basket.empty']}</p> : (
          <div className="basket-drawer__groups">
            {groups.map((g) => (
              <section key={g.slug} className="basket-group" aria-labelledby={`basket-group-${g.slug}`}>
                <div className="basket-group__head">
                  <h3 id={`basket-group-${g.slug}`}>{g.name}</h3>
                  <button type="button" className="basket-group__remove" onClick={() => removeClassificationFromBasket(g.slug)}>
                    {fill(m['basket.removeGroup'], { name: g.name })}
                  </button>
                </div>
                <ul className="basket-group__list">
                  {g.products.map((p) => (
                    <li key={p.key} className="basket-item" aria-busy={p.loading || undefined}>
                      {p.imageUrl ? <img src={p.imageUrl} alt="" width={IMAGE_PRESETS.GalleryThumbnail.width} height={IMAGE_PRESETS.GalleryThumbnail.height} loading="lazy" /> : <span className="basket-item__image-placeholder" aria-hidden="true" />}
                      <div className="basket-item__text">
                        {p.loading ? <span className="basket-item__loading">{m['basket.loading']}</span> : <a href={p.url}>{p.name}</a>}
                        {p.variantName && <span className="basket-item__variant">{p.variantName}</span>}
                      </div>
                      <button type="button" className="basket-item__remove" onClick={() => removeFromBasket(p.key)}>
                        <Icon name="close" size={16} /><span className="visually-hidden">{fill(m['basket.removeItem'], { name: p.name ?? p.slug })}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
        )}
        {count > 0 && <a className="btn basket-drawer__compare" href={`${prefix}${COMPARISON_PATH}`}>{m['basket.compare']}</a>}
      </dialog>
      {hydrated && lastAdded && (
        <div className="basket-notice">
          <FlashMessage
            key={lastAdded.id}
            type="success"
            floating
            message={fill(m['basket.added'], { name: lastAdded.name })}
            dismissLabel={m['flash.dismiss']}
            typeLabel={m['flash.success']}
            onHide={dismissNotice}
          />
        </div>
      )}
    </>
  );
}
