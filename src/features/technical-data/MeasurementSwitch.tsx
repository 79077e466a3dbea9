import type { MeasurementSystem } from '../../site/types.ts';
import { setMeasurement } from './measurement.ts';

export interface MeasurementSwitchMessages {
  'technicalData.system': string;
  'technicalData.metric': string;
  'technicalData.imperial': string;
}

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
