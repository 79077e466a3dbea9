import type { TicketFormOptions } from '../../lib/ticketing/types.ts';
import { REQUIRED_MESSAGES, SUBJECT_MAX, TEXT_MAX, type TicketFormField, type TicketFormValues } from './validation.ts';
import { typeKey } from './view.ts';

const REQUIRED = new Set<TicketFormField>(Object.keys(REQUIRED_MESSAGES) as TicketFormField[]);

/** Per field, the message shown under it ('' is the form's own). */
export type TicketFormErrors = Partial<Record<TicketFormField | '', string>>;

type LabelKey = 'tickets.form.location' | 'tickets.form.type' | 'tickets.form.machine' | 'tickets.form.subject' | 'tickets.form.description' | 'tickets.form.machineName' | 'tickets.form.serialNumber';

/**
 * NewTicket's fields, each labelled (required ones marked, the others "optional") and tied to its
 * error message; the machines offered are those of the chosen location.
 */
export function TicketFormFields({ id, options: o, values, errors, busy, m, onChange }: {
  id: string;
  options: TicketFormOptions;
  values: TicketFormValues;
  errors: TicketFormErrors;
  busy: boolean;
  m: Record<string, string | undefined>;
  onChange: (field: TicketFormField, value: string) => void;
}) {
  const machines = values.locationId ? o.machines.filter((x) => x.locationId === values.locationId) : o.machines;
  const label = (f: TicketFormField, key: LabelKey) => (
    <label htmlFor={`${id}-${f}`}>
      {m[key]}{REQUIRED.has(f) ? <span aria-hidden="true"> *</span> : <span className="services__muted"> ({m['tickets.form.optional']})</span>}
    </label>
  );
  const error = (f: TicketFormField) => errors[f] && <p className="field__error" id={`${id}-${f}-error`}>{errors[f]}</p>;
  const common = (f: TicketFormField) => ({
    id: `${id}-${f}`, name: f, value: values[f], disabled: busy, required: REQUIRED.has(f),
    'aria-invalid': errors[f] ? true : undefined, 'aria-describedby': errors[f] ? `${id}-${f}-error` : undefined,
    onChange: (e: { target: { value: string } }) => onChange(f, e.target.value),
  });
  const text = (f: TicketFormField, key: LabelKey, maxLength: number) => (
    <div className="field">
      {label(f, key)}
      <input {...common(f)} type="text" maxLength={maxLength} />
      {error(f)}
    </div>
  );
  return (
    <>
      <div className="services__form-row">
        <div className="field">
          {label('locationId', 'tickets.form.location')}
          <select {...common('locationId')}>
            <option value="">{m['tickets.form.choose']}</option>
            {o.locations.map((l) => <option key={l.id} value={l.id}>{l.name} ({l.city})</option>)}
          </select>
          {error('locationId')}
        </div>
        <div className="field">
          {label('type', 'tickets.form.type')}
          <select {...common('type')}>
            <option value="">{m['tickets.form.choose']}</option>
            {o.ticketTypes.map((t) => <option key={t} value={t}>{m[typeKey(t)]}</option>)}
          </select>
          {error('type')}
        </div>
      </div>
      <div className="field">
        {label('machineId', 'tickets.form.machine')}
        <select {...common('machineId')}>
          <option value="">{m['tickets.form.choose']}</option>
          {machines.map((x) => <option key={x.id} value={x.id}>{x.name} · {x.model} · {x.serialNumber}</option>)}
        </select>
        {error('machineId')}
      </div>
      {text('subject', 'tickets.form.subject', SUBJECT_MAX)}
      <div className="field">
        {label('description', 'tickets.form.description')}
        <textarea {...common('description')} rows={6} maxLength={TEXT_MAX} />
        {error('description')}
      </div>
      <div className="services__form-row">
        {text('machineName', 'tickets.form.machineName', 200)}
        {text('serialNumber', 'tickets.form.serialNumber', 100)}
      </div>
    </>
  );
}
