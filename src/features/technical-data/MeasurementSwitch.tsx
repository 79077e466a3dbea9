import type { MeasurementSystem } from '../../site/types.ts';
import type { IslandMessages } from '../../i18n/island.ts';
import { setMeasurement } from './measurement.ts';

/** The locale keys this island shows (see i18n/island.ts). */
export const MESSAGE_KEYS = [
  'technicalData.system', 'technicalData.metric', 'technicalData.imperial',
] as const;
export type MeasurementSwitchMessages = IslandMessages<typeof MESSAGE_KEYS>;

/** Metric / imperial as a radio group; the choice is saved and applies on every page. */
export function MeasurementSwitch({ value, messages: m, name, disabled = false }: { value: MeasurementSystem; messages: MeasurementSwitchMessages; name: string; disabled?: boolean }) {
  const options: { system: MeasurementSystem; label: string }[] = [
    { system: 'Metric', label: m['technicalData.metric'] },
    { system: 'Imperial', label: m['technicalData.imperial'] },
  ];
  return (
    <fieldset className="measurement-switch">
      <legend className="measurement-switch__legend">{m['technicalData.system']}</legend>
      <div className="measurement-switch__options">
        {options.map((o) => (
          <label key={o.system} className="measurement-switch__option">
            <input type="radio" name={name} value={o.system} checked={value === o.system} disabled={disabled} onChange={() => setMeasurement(o.system)} />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
