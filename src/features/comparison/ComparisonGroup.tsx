import type { MeasurementSystem } from '../../site/types.ts';
import type { BasketGroup } from '../basket/basket.ts';
import { fill, type IslandMessages } from '../../i18n/island.ts';
import { changeBasketVariant, removeClassificationFromBasket, removeFromBasket } from '../basket/store.ts';
import { variantName } from '../technical-data/specifications.ts';
import { Icon } from '../../components/ui/Icon.tsx';
import { IMAGE_PRESETS } from '../../components/ui/image-presets.ts';
import { comparisonCsv, csvFileName } from './csv.ts';
import { comparisonRows, visibleRows, type ComparisonRow } from './rows.ts';
import type { ComparisonApiProduct } from './model.ts';

/** The locale keys this island shows (see i18n/island.ts). */
export const MESSAGE_KEYS = [
  'comparison.specification', 'comparison.hideIdentical', 'comparison.downloadCsv', 'comparison.variant', 'comparison.variantOf', 'comparison.remove', 'comparison.removeGroup', 'comparison.notApplicable', 'comparison.different', 'comparison.loadingProduct', 'comparison.unavailable', 'comparison.noDifferences', 'comparison.tableLabel',
] as const;
export type ComparisonGroupMessages = IslandMessages<typeof MESSAGE_KEYS>;

/** A product column: its basket entry and its details once they have arrived (null: not in the catalogue). */
export interface ComparisonColumn {
  key: string;
  slug: string;
  selectedVariantId: string | null;
  detail: ComparisonApiProduct | null | undefined;
}

interface Props {
  group: BasketGroup;
  details: Record<string, ComparisonApiProduct | null>;
  system: MeasurementSystem;
  hideIdentical: boolean;
  onHideIdentical: (hide: boolean) => void;
  prefix: string;
  /** The Intl locale of the page's numbers (de-CH for German). */
  numberLocale: string;
  messages: ComparisonGroupMessages;
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A product's column head: its card (image, brand, name, variant choice), a placeholder while it loads, or why it is missing; and its remove button. */
function ProductHeader({ column: c, system, prefix, m }: { column: ComparisonColumn; system: MeasurementSystem; prefix: string; m: ComparisonGroupMessages }) {
  return (
    <th scope="col" className="comparison-product" aria-busy={c.detail === undefined || undefined}>
      {c.detail === undefined ? (
        <div className="comparison-product__placeholder">
          <span className="skeleton skeleton--image" aria-hidden="true" />
          <span className="skeleton skeleton--line" aria-hidden="true" />
          <span className="visually-hidden">{m['comparison.loadingProduct']}</span>
        </div>
      ) : c.detail === null ? (
        <p className="comparison-product__missing">{fill(m['comparison.unavailable'], { name: c.slug })}</p>
      ) : (
        <div className="comparison-product__card">
          <img src={c.detail.imageUrl} alt="" width={IMAGE_PRESETS.ProductCard.width} height={IMAGE_PRESETS.ProductCard.height} loading="lazy" />
          {/* The logo is decoration: the brand's name follows it. Box 288×96 shown at half (Brand preset). */}
          {c.detail.brandImageUrl && <img className="comparison-product__logo" src={c.detail.brandImageUrl} alt="" width={IMAGE_PRESETS.Brand.width} height={IMAGE_PRESETS.Brand.height} loading="lazy" />}
          <span className="comparison-product__brand">{c.detail.brand}</span>
          <a className="comparison-product__name" href={`${prefix}${c.detail.route}`}>{c.detail.name}</a>
          {c.detail.variants.length > 0 && (
            <select
              className="comparison-product__variant"
              aria-label={fill(m['comparison.variantOf'], { name: c.detail.name })}
              value={c.selectedVariantId ?? ''}
              onChange={(e) => changeBasketVariant(c.key, e.target.value || null)}
            >
              {c.selectedVariantId === null && <option value="">—</option>}
              {c.detail.variants.map((v) => <option key={v.id} value={v.id}>{variantName(v, system)}</option>)}
            </select>
          )}
        </div>
      )}
      <button type="button" className="comparison-product__remove" onClick={() => removeFromBasket(c.key)}>
        <Icon name="close" size={16} /><span className="visually-hidden">{fill(m['comparison.remove'], { name: c.detail?.name ?? c.slug })}</span>
      </button>
    </th>
  );
}

/** One classification of the comparison: a table of its products, specification by specification. */
export function ComparisonGroup({ group, details, system, hideIdentical, onHideIdentical, prefix, numberLocale, messages: m }: Props) {
  const columns: ComparisonColumn[] = group.products.map((p) => ({ key: p.key, slug: p.slug, selectedVariantId: p.variantId, detail: details[p.slug] }));
  const loaded = columns.filter((c): c is ComparisonColumn & { detail: ComparisonApiProduct } => !!c.detail);
  const title = loaded[0]?.detail.classification.name ?? group.slug;
  const allRows: ComparisonRow[] = comparisonRows(loaded.map((c) => ({ specifications: c.detail.specifications, variants: c.detail.variants, selectedVariantId: c.selectedVariantId })), system, numberLocale);
  const canHide = columns.length > 1;
  const rows = visibleRows(allRows, canHide && hideIdentical);
  const loading = columns.some((c) => c.detail === undefined);
  const headingId = `comparison-${group.slug}`;
  const variantOf = (c: (typeof loaded)[number]) => {
    const v = c.detail.variants.find((x) => x.id === c.selectedVariantId);
    return v ? variantName(v, system) : null;
  };
  const exportCsv = () => download(csvFileName(title), comparisonCsv(
    loaded.map((c) => ({ name: c.detail.name, variantName: variantOf(c) })),
    rows,
    { specification: m['comparison.specification'], variant: m['comparison.variant'], notApplicable: m['comparison.notApplicable'] },
  ));

  return (
    <section className="comparison-group" aria-labelledby={headingId} aria-busy={loading || undefined}>
      <div className="comparison-group__head">
        <h2 id={headingId}>{title}</h2>
        <div className="comparison-group__tools">
          <label className="switch">
            <input type="checkbox" role="switch" checked={canHide && hideIdentical} disabled={!canHide} onChange={(e) => onHideIdentical(e.target.checked)} />
            <span className="switch__track" aria-hidden="true" />
            <span>{m['comparison.hideIdentical']}</span>
          </label>
          <button type="button" className="btn btn--secondary comparison-group__csv" disabled={loading || loaded.length === 0} onClick={exportCsv}>
            <Icon name="download" size={16} />{m['comparison.downloadCsv']}<span className="visually-hidden">: {title}</span>
          </button>
          <button type="button" className="comparison-group__remove" onClick={() => removeClassificationFromBasket(group.slug)}>
            {fill(m['comparison.removeGroup'], { name: title })}
          </button>
        </div>
      </div>
      <div className="comparison-scroll" role="region" aria-label={fill(m['comparison.tableLabel'], { name: title })} tabIndex={0}>
        <table className="comparison-table">
          <caption className="visually-hidden">{fill(m['comparison.tableLabel'], { name: title })}</caption>
          <thead>
            <tr>
              <th scope="col" className="comparison-table__corner">{m['comparison.specification']}</th>
              {columns.map((c) => (
                <ProductHeader key={c.key} column={c} system={system} prefix={prefix} m={m} />
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              let i = 0;
              return (
                <tr key={r.name} className={r.different ? 'is-different' : undefined} data-different={r.different || undefined} data-not-applicable={r.notApplicable || undefined}>
                  <th scope="row">
                    {r.name}
                    {r.different && <span className="comparison-table__flag"><span className="visually-hidden"> — </span>{m['comparison.different']}</span>}
                  </th>
                  {columns.map((c) => {
                    if (!c.detail) return <td key={c.key}>{c.detail === undefined && <span className="skeleton skeleton--line" aria-hidden="true" />}</td>;
                    const cell = r.cells[i++]!;
                    return cell.notApplicable
                      ? <td key={c.key} className="is-not-applicable"><span aria-hidden="true">–</span><span className="visually-hidden">{m['comparison.notApplicable']}</span></td>
                      : <td key={c.key}>{cell.value}</td>;
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
        {!loading && rows.length === 0 && allRows.length > 0 && <p className="comparison-group__none">{m['comparison.noDifferences']}</p>}
      </div>
    </section>
  );
}
