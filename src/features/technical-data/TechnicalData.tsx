import type { MeasurementSystem } from '../../site/types.ts';
import type { Specification, Variant } from '../../lib/catalogue/types.ts';
import type { IslandMessages } from '../../i18n/island.ts';
import { MeasurementSwitch, MESSAGE_KEYS as SWITCH_MESSAGE_KEYS } from './MeasurementSwitch.tsx';
import { specificationsFor, variantName } from './specifications.ts';
import { useMeasurement } from './use-measurement.ts';

/** The locale keys this island shows (see i18n/island.ts). */
export const MESSAGE_KEYS = [
  ...SWITCH_MESSAGE_KEYS, 'technicalData.title', 'technicalData.specification', 'technicalData.value', 'technicalData.variants', 'technicalData.none',
] as const;
export type TechnicalDataMessages = IslandMessages<typeof MESSAGE_KEYS>;

interface Props {
  specifications: Specification[];
  variants: Variant[];
  /** The system the server rendered: the saved choice, else the country's default. */
  rendered: MeasurementSystem;
  headingId: string;
  messages: TechnicalDataMessages;
}

function SpecTable({ specs, caption, m }: { specs: Specification[]; caption: string; m: TechnicalDataMessages }) {
  return (
    <table className="spec-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead className="visually-hidden">
        <tr><th scope="col">{m['technicalData.specification']}</th><th scope="col">{m['technicalData.value']}</th></tr>
      </thead>
      <tbody>
        {specs.map((s) => (
          <tr key={`${s.name}|${s.unit ?? ''}`}>
            <th scope="row">{s.name}</th>
            <td>
              <span className="spec-table__value">{s.value}</span>
              {s.unit && <> <span className="spec-table__unit">{s.unit}</span></>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Technical data and variants in the visitor's measurement system (spec §5): only that system's
 * readings, duplicates dropped. Switching re-renders at once, without a reload. The radios are live
 * in the server HTML: a click before hydration is replayed by `client:interaction` once it is live.
 */
export function TechnicalData({ specifications, variants, rendered, headingId, messages: m }: Props) {
  const system = useMeasurement(rendered);
  const specs = specificationsFor(specifications, system);
  return (
    <div className="technical-data" data-measurement={system}>
      <MeasurementSwitch value={system} messages={m} name={`${headingId}-system`} />
      {specs.length > 0 ? <SpecTable specs={specs} caption={m['technicalData.title']} m={m} /> : <p>{m['technicalData.none']}</p>}
      {variants.length > 0 && (
        <div className="technical-data__variants">
          <h3>{m['technicalData.variants']}</h3>
          <div className="technical-data__variant-list">
            {variants.map((v) => {
              const name = variantName(v, system);
              const vs = specificationsFor(v.specifications, system);
              return (
                <section key={v.id} className="variant-card" aria-label={name}>
                  <h4 className="variant-card__name">{name}</h4>
                  {vs.length > 0 && <SpecTable specs={vs} caption={name} m={m} />}
                </section>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}
