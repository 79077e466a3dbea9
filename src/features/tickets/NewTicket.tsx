import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { keyHolder, type KeyHolder } from '../../lib/idempotency/key.ts';
import type { TicketFormOptions } from '../../lib/ticketing/types.ts';
import { FILE_KEYS, FilePicker, uploadAll, type PickedFile } from './FilePicker.tsx';
import { ticketPath } from '../customer-area/paths.ts';
import { detailOf, Gate, Loading, ServiceError, SHARED_KEYS, tr, useServiceSession, writeFailure, type ServiceIslandProps, type WriteFailure } from '../customer-area/island-kit.tsx';
import { ticketing } from './api-client.ts';
import { TYPE_KEYS } from './TicketList.tsx';
import { TicketFormFields, type TicketFormErrors } from './TicketFormFields.tsx';
import { fieldErrorsByField, REQUIRED_MESSAGES, TICKET_FORM_FIELDS, validateTicketForm, withField, type TicketFormField, type TicketFormValues } from './validation.ts';

export const MESSAGE_KEYS = [
  ...SHARED_KEYS, ...TYPE_KEYS, ...FILE_KEYS, ...Object.values(REQUIRED_MESSAGES),
  'tickets.service', 'tickets.form.intro', 'tickets.form.location', 'tickets.form.type', 'tickets.form.machine', 'tickets.form.subject',
  'tickets.form.description', 'tickets.form.machineName', 'tickets.form.serialNumber', 'tickets.form.choose',
  'tickets.form.optional', 'tickets.form.invalid', 'tickets.form.submit', 'tickets.form.submitting', 'tickets.form.uploading',
  'tickets.form.toTicket', 'tickets.backToList',
] as const;

type Props = ServiceIslandProps<Key>;
/** The locale keys this island shows (its messages are typed by them). */
type Key = (typeof MESSAGE_KEYS)[number];

type Options = { kind: 'loading' } | { kind: 'ready'; options: TicketFormOptions } | { kind: 'failed'; detail: string };
type Phase = { kind: 'editing' } | { kind: 'creating' } | { kind: 'uploading'; id: string } | ({ kind: 'failed'; id?: string } & WriteFailure);

const EMPTY: TicketFormValues = { locationId: '', type: '', machineId: '', subject: '', description: '', machineName: '', serialNumber: '' };

/** /{locale}/mykomax/tickets/newticket (`?machine=` preselects): the ticket form, then the attachments with progress, then the ticket. */
export function NewTicket({ messages: m, locale, paths, support }: Props) {
  const session = useServiceSession('tickets');
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [options, setOptions] = useState<Options>({ kind: 'loading' });
  const [values, setValues] = useState<TicketFormValues>(EMPTY);
  const [errors, setErrors] = useState<TicketFormErrors>({});
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [phase, setPhase] = useState<Phase>({ kind: 'editing' });
  const [attempt, setAttempt] = useState(0);
  // The ticket's idempotency key, made when the form opens: pressing "Create ticket" again after an
  // unknown outcome sends the same key, so the service answers with the ticket it already made.
  const keys = useRef<KeyHolder | null>(null);
  keys.current ??= keyHolder();
  const ready = session.kind === 'ready';

  useEffect(() => {
    if (!ready) return;
    let live = true;
    ticketing.ticketForm().then((o) => {
      if (!live) return;
      setOptions({ kind: 'ready', options: o });
      const wanted = new URLSearchParams(location.search).get('machine');
      const machine = o.machines.find((x) => x.id === wanted);
      if (machine) setValues((v) => ({ ...v, machineId: machine.id, locationId: v.locationId || machine.locationId }));
    }, (err: unknown) => { if (live) setOptions({ kind: 'failed', detail: detailOf(err) }); });
    return () => { live = false; };
  }, [ready, attempt]);

  if (session.kind !== 'ready') return <Gate state={session} m={m} service={m['tickets.service']!} dashboard={paths.dashboard} support={support} />;
  if (options.kind === 'loading') return <Loading m={m} />;
  if (options.kind === 'failed') return <ServiceError m={m} support={support} detail={options.detail} retry={() => setAttempt((n) => n + 1)} />;
  const o = options.options;
  // Once the ticket exists (uploads running or failed), the form cannot create it a second time.
  const busy = phase.kind === 'creating' || phase.kind === 'uploading' || (phase.kind === 'failed' && !!phase.id);

  const set = (field: TicketFormField, value: string) => {
    setValues((v) => withField(v, field, value, o.machines));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const focusFirst = (errs: TicketFormErrors) => {
    const first = TICKET_FORM_FIELDS.find((f) => errs[f]);
    if (first) requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus());
  };

  const onSubmit = async (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const local = Object.fromEntries(Object.entries(validateTicketForm(values)).map(([f, key]) => [f, m[key]])) as Partial<Record<TicketFormField, string>>;
    if (Object.keys(local).length) {
      setErrors({ ...local, '': m['tickets.form.invalid'] });
      focusFirst(local);
      return;
    }
    setErrors({});
    setPhase({ kind: 'creating' });
    try {
      const key = keys.current!.for(JSON.stringify(values));
      const created = await ticketing.createTicket({ ...values, type: values.type as TicketFormOptions['ticketTypes'][number] }, key);
      keys.current!.settle();
      if (!created.ok) {
        // The service checks again and answers the same messages per field.
        const byField = fieldErrorsByField(created.errors);
        setErrors({ ...byField, '': byField[''] ?? m['tickets.form.invalid'] });
        setPhase({ kind: 'editing' });
        focusFirst(byField);
        return;
      }
      const ticketId = created.value.id;
      if (files.length === 0) {
        location.assign(ticketPath(paths, ticketId));
        return;
      }
      setPhase({ kind: 'uploading', id: ticketId });
      const result = await uploadAll(files, (file, onProgress, key) => ticketing.addAttachment(ticketId, file, onProgress, undefined, key).then((r) => r.ok || r.errors.map((x) => x.message).join('; ')), setFiles);
      if (result.ok) location.assign(ticketPath(paths, ticketId));
      else setPhase({ kind: 'failed', detail: result.detail ?? '', unknown: result.unknown, stalled: result.stalled, id: ticketId });
    } catch (err) {
      setPhase({ kind: 'failed', ...writeFailure(err) });
    }
  };

  return (
    <form ref={formRef} className="services__form" noValidate onSubmit={onSubmit} aria-busy={busy || undefined}>
      <p className="services__hint">{m['tickets.form.intro']}</p>
      <div aria-live="assertive" className="services__live">
        {errors[''] && <p className="flash flash--error"><span className="flash__text">{errors['']}</span></p>}
      </div>
      {phase.kind === 'failed' && (
        <>
          <ServiceError m={m} support={support} detail={phase.detail} unknown={phase.unknown} stalled={phase.stalled} />
          {phase.id && <p><a href={ticketPath(paths, phase.id)}>{tr(m, 'tickets.form.toTicket', { id: phase.id })}</a></p>}
        </>
      )}
      <TicketFormFields id={id} options={o} values={values} errors={errors} busy={busy} m={m} onChange={set} />
      <FilePicker files={files} onChange={setFiles} m={m} locale={locale} disabled={busy} />
      <p className="services__live" role="status">
        {phase.kind === 'creating' ? m['tickets.form.submitting'] : phase.kind === 'uploading' ? tr(m, 'tickets.form.uploading', { id: phase.id }) : ''}
      </p>
      <div className="services__actions">
        <button type="submit" className="btn" disabled={busy}>{busy ? m['tickets.form.submitting'] : m['tickets.form.submit']}</button>
        <a href={paths.ticketList}>{m['tickets.backToList']}</a>
      </div>
    </form>
  );
}
