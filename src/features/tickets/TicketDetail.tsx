import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { formatFileSize } from '../../i18n/format.ts';
import { keyHolder, type KeyHolder } from '../../lib/idempotency/key.ts';
import { CLOSING_REASONS, type ClosingReason, type Ticket } from '../../lib/ticketing/types.ts';
import { FILE_KEYS, FilePicker, uploadAll, type PickedFile } from './FilePicker.tsx';
import {
  detailOf, Gate, Loading, ServiceError, SHARED_KEYS, tr, useServiceSession, writeFailure, type Messages, type ServiceIslandProps, type SupportContactInfo, type WriteFailure,
} from '../customer-area/island-kit.tsx';
import { ticketing } from './api-client.ts';
import { STATUS_KEYS, TYPE_KEYS } from './TicketList.tsx';
import { COMMENT_REQUIRED, TEXT_MAX, validateComment } from './validation.ts';
import { formatDate, statusKey, typeKey } from './view.ts';

export const REASON_KEYS = CLOSING_REASONS.map((r) => `tickets.reason.${r}` as const);

export const MESSAGE_KEYS = [
  ...SHARED_KEYS, ...STATUS_KEYS, ...TYPE_KEYS, ...FILE_KEYS, ...REASON_KEYS, COMMENT_REQUIRED,
  'tickets.service', 'tickets.backToList', 'tickets.col.type', 'tickets.col.status', 'tickets.col.machine', 'tickets.col.createdOn',
  'tickets.detail.notFound', 'tickets.detail.facts', 'tickets.detail.description', 'tickets.detail.contact', 'tickets.detail.location',
  'tickets.detail.updatedOn', 'tickets.detail.serialNumber', 'tickets.detail.concern', 'tickets.detail.conversation', 'tickets.detail.noMessages',
  'tickets.detail.komax', 'tickets.detail.addComment', 'tickets.detail.comment', 'tickets.detail.send', 'tickets.detail.commentAdded',
  'tickets.detail.attachments', 'tickets.detail.noAttachments', 'tickets.detail.download', 'tickets.detail.upload', 'tickets.detail.uploaded',
  'tickets.detail.close', 'tickets.detail.closeReason', 'tickets.detail.reasonRequired', 'tickets.detail.closeComment', 'tickets.detail.closeSubmit',
  'tickets.detail.closed', 'tickets.detail.closedReason', 'tickets.detail.closedDone', 'tickets.detail.closedNoChanges', 'tickets.detail.sending',
] as const;

type Key = (typeof MESSAGE_KEYS)[number];
interface Props extends ServiceIslandProps<Key> {
  /** Empty when the address names no possible ticket (the page answered 404). */
  ticketId: string;
}

type Data = { kind: 'loading' } | { kind: 'ready'; ticket: Ticket } | { kind: 'missing' } | { kind: 'failed'; detail: string };

/** /{locale}/mykomax/tickets/{id}: the ticket, its conversation and attachments; comment, attach, close. */
export function TicketDetail({ messages: m, locale, paths, support, ticketId }: Props) {
  const session = useServiceSession('tickets');
  const [data, setData] = useState<Data>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [announce, setAnnounce] = useState('');
  const ready = session.kind === 'ready';

  useEffect(() => {
    if (!ready) return;
    if (!ticketId) { setData({ kind: 'missing' }); return; }
    let live = true;
    ticketing.ticket(ticketId).then(
      (ticket) => { if (live) setData(ticket ? { kind: 'ready', ticket } : { kind: 'missing' }); },
      (err: unknown) => { if (live) setData({ kind: 'failed', detail: detailOf(err) }); },
    );
    return () => { live = false; };
  }, [ready, ticketId, attempt]);

  if (session.kind !== 'ready') return <Gate state={session} m={m} service={m['tickets.service']!} dashboard={paths.dashboard} support={support} />;
  if (data.kind === 'loading') return <Loading m={m} />;
  if (data.kind === 'failed') return <ServiceError m={m} support={support} detail={data.detail} retry={() => setAttempt((n) => n + 1)} />;
  if (data.kind === 'missing') {
    return <div className="services__empty"><p>{tr(m, 'tickets.detail.notFound', { id: ticketId })}</p><a href={paths.ticketList}>{m['tickets.backToList']}</a></div>;
  }
  const t = data.ticket;
  const closed = t.status === 'CLOSED';
  const replace = (ticket: Ticket, message: string) => { setData({ kind: 'ready', ticket }); setAnnounce(message); };
  const reload = (message: string) => ticketing.ticket(ticketId).then((ticket) => { if (ticket) replace(ticket, message); });

  return (
    <div className="ticket">
      <p className="services__live visually-hidden" role="status">{announce}</p>
      <div className="ticket__head">
        <h2 className="ticket__subject">{t.subject}</h2>
        <span className={`status status--${(t.status ?? 'unknown').toLowerCase()}`}>{m[statusKey(t.status)]}</span>
      </div>
      {closed && <ClosedNotice t={t} m={m} locale={locale} />}
      <section className="ticket__section" aria-labelledby="ticket-facts">
        <h3 id="ticket-facts">{m['tickets.detail.facts']}</h3>
        <dl className="ticket__facts">
          <Fact label={m['tickets.col.type']} value={m[typeKey(t.type)]} />
          <Fact label={m['tickets.col.machine']} value={t.machine} />
          <Fact label={m['tickets.detail.serialNumber']} value={t.serialNumber} />
          {t.concern && <Fact label={m['tickets.detail.concern']} value={`${t.concern.name} · ${t.concern.model} · ${t.concern.serialNumber}`} />}
          <Fact label={m['tickets.detail.location']} value={`${t.location.name}, ${t.location.city}`} />
          <Fact label={m['tickets.detail.contact']} value={t.contact.name} />
          <Fact label={m['tickets.col.createdOn']} value={formatDate(t.createdOn, locale, true)} />
          <Fact label={m['tickets.detail.updatedOn']} value={formatDate(t.updatedOn, locale, true)} />
        </dl>
      </section>
      <section className="ticket__section" aria-labelledby="ticket-description">
        <h3 id="ticket-description">{m['tickets.detail.description']}</h3>
        <p className="ticket__text">{t.description}</p>
      </section>
      <section className="ticket__section" aria-labelledby="ticket-conversation">
        <h3 id="ticket-conversation">{m['tickets.detail.conversation']}</h3>
        {t.conversation.length === 0 ? <p className="services__muted">{m['tickets.detail.noMessages']}</p> : (
          <ol className="ticket__conversation">
            {t.conversation.map((msg) => (
              <li key={msg.id} className={`ticket__message${msg.fromKomax ? ' ticket__message--komax' : ''}`}>
                <p className="ticket__meta">
                  <strong>{msg.author}</strong>{msg.fromKomax && <span className="ticket__badge">{m['tickets.detail.komax']}</span>}
                  {' · '}<time dateTime={msg.createdOn}>{formatDate(msg.createdOn, locale, true)}</time>
                </p>
                <p className="ticket__text">{msg.body}</p>
              </li>
            ))}
          </ol>
        )}
        {!closed && <CommentForm ticketId={t.id} m={m} support={support} onAdded={(ticket) => replace(ticket, m['tickets.detail.commentAdded']!)} />}
      </section>
      <section className="ticket__section" aria-labelledby="ticket-attachments">
        <h3 id="ticket-attachments">{m['tickets.detail.attachments']}</h3>
        {t.attachments.length === 0 ? <p className="services__muted">{m['tickets.detail.noAttachments']}</p> : (
          <ul className="ticket__attachments">
            {t.attachments.map((a) => (
              <li key={a.id}>
                <a href={a.url} download={a.fileName}>{tr(m, 'tickets.detail.download', { name: a.fileName })}</a>
                <span className="services__muted"> · {formatFileSize(a.size, locale)} · {a.uploadedBy} · {formatDate(a.createdOn, locale)}</span>
              </li>
            ))}
          </ul>
        )}
        {!closed && <AttachmentForm ticketId={t.id} m={m} support={support} locale={locale} onUploaded={() => reload(m['tickets.detail.uploaded']!)} />}
      </section>
      {!closed && <CloseForm ticketId={t.id} m={m} support={support} onClosed={(ticket) => replace(ticket, m['tickets.detail.closedDone']!)} />}
      <p><a href={paths.ticketList}>{m['tickets.backToList']}</a></p>
    </div>
  );
}

function Fact({ label, value }: { label: string | undefined; value: string | undefined }) {
  if (!value) return null;
  return <div className="ticket__fact"><dt>{label}</dt><dd>{value}</dd></div>;
}

function ClosedNotice({ t, m, locale }: { t: Ticket; m: Messages<Key>; locale: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => { if (document.activeElement === document.body || document.activeElement?.closest('.ticket__close')) ref.current?.focus(); }, []);
  return (
    <div className="ticket__closed" ref={ref} tabIndex={-1}>
      <p><strong>{tr(m, 'tickets.detail.closed', { date: formatDate(t.closedOn, locale) })}</strong></p>
      {t.closingReason && <p>{tr(m, 'tickets.detail.closedReason', { reason: m[`tickets.reason.${t.closingReason}`] ?? t.closingReason })}</p>}
      {t.closingComment && <p className="ticket__text">{t.closingComment}</p>}
      <p className="services__muted">{m['tickets.detail.closedNoChanges']}</p>
    </div>
  );
}

function CommentForm({ ticketId, m, support, onAdded }: { ticketId: string; m: Messages<Key>; support: SupportContactInfo | null; onAdded: (t: Ticket) => void }) {
  const id = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<WriteFailure | null>(null);
  const [sending, setSending] = useState(false);
  // The comment's idempotency key: "Send" again after an unknown outcome adds the comment once.
  const keys = useRef<KeyHolder | null>(null);
  keys.current ??= keyHolder();
  const onSubmit = async (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (sending) return;
    const problem = validateComment(body);
    if (problem) { setError(m[problem]!); ref.current?.focus(); return; }
    setError(null);
    setFailure(null);
    setSending(true);
    try {
      const r = await ticketing.addComment(ticketId, body, keys.current!.for(body));
      keys.current!.settle();
      if (r.ok) { setBody(''); onAdded(r.value); } else { setError(r.errors[0]?.message ?? m[COMMENT_REQUIRED]!); ref.current?.focus(); }
    } catch (err) {
      setFailure(writeFailure(err));
    } finally {
      setSending(false);
    }
  };
  return (
    <form className="services__form ticket__comment" noValidate onSubmit={onSubmit}>
      <h4>{m['tickets.detail.addComment']}</h4>
      {failure && <ServiceError m={m} support={support} {...failure} headingLevel={3} />}
      <div className="field">
        <label htmlFor={`${id}-comment`}>{m['tickets.detail.comment']}</label>
        <textarea ref={ref} id={`${id}-comment`} name="comment" rows={4} maxLength={TEXT_MAX} value={body} required disabled={sending}
          aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-comment-error` : undefined}
          onChange={(e) => { setBody(e.target.value); if (error) setError(null); }} />
        {error && <p className="field__error" id={`${id}-comment-error`} role="alert">{error}</p>}
      </div>
      <button type="submit" className="btn" disabled={sending}>{sending ? m['tickets.detail.sending'] : m['tickets.detail.send']}</button>
    </form>
  );
}

function AttachmentForm({ ticketId, m, support, locale, onUploaded }: { ticketId: string; m: Messages<Key>; support: SupportContactInfo | null; locale: string; onUploaded: () => Promise<void> }) {
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<WriteFailure | null>(null);
  const waiting = files.some((f) => f.state === 'waiting' || f.state === 'failed');
  const onUpload = async () => {
    setBusy(true);
    setFailure(null);
    const result = await uploadAll(files, (file, onProgress, key) => ticketing.addAttachment(ticketId, file, onProgress, undefined, key).then((r) => r.ok || r.errors.map((x) => x.message).join('; ')), setFiles);
    setBusy(false);
    if (result.ok) {
      setFiles([]);
      await onUploaded().catch((err: unknown) => setFailure({ detail: detailOf(err) }));
    } else {
      setFailure({ detail: result.detail ?? '', unknown: result.unknown, stalled: result.stalled });
    }
  };
  return (
    <div className="ticket__upload">
      {failure !== null && <ServiceError m={m} support={support} {...failure} headingLevel={3} />}
      <FilePicker files={files} onChange={setFiles} m={m} locale={locale} disabled={busy} />
      <button type="button" className="btn btn--secondary" disabled={busy || !waiting} onClick={onUpload}>{m['tickets.detail.upload']}</button>
    </div>
  );
}

function CloseForm({ ticketId, m, support, onClosed }: { ticketId: string; m: Messages<Key>; support: SupportContactInfo | null; onClosed: (t: Ticket) => void }) {
  const id = useId();
  const [reason, setReason] = useState<ClosingReason | ''>('');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const firstRadio = useRef<HTMLInputElement>(null);
  const onSubmit = async (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (sending) return;
    if (!reason) { setError(m['tickets.detail.reasonRequired']!); firstRadio.current?.focus(); return; }
    setError(null);
    setFailure(null);
    setSending(true);
    try {
      const r = await ticketing.closeTicket(ticketId, reason, comment);
      if (r.ok) onClosed(r.value);
      else setFailure(r.errors.map((x) => x.message).join('; '));
    } catch (err) {
      setFailure(detailOf(err));
    } finally {
      setSending(false);
    }
  };
  return (
    <section className="ticket__section ticket__close" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{m['tickets.detail.close']}</h3>
      {failure !== null && <ServiceError m={m} support={support} detail={failure} headingLevel={3} />}
      <form className="services__form" noValidate onSubmit={onSubmit}>
        <fieldset className="field" aria-describedby={error ? `${id}-reason-error` : undefined}>
          <legend>{m['tickets.detail.closeReason']}</legend>
          {CLOSING_REASONS.map((r, i) => (
            <label key={r} className="services__radio">
              <input ref={i === 0 ? firstRadio : undefined} type="radio" name="reason" value={r} checked={reason === r} disabled={sending}
                onChange={() => { setReason(r); setError(null); }} />
              {m[`tickets.reason.${r}`]}
            </label>
          ))}
          {error && <p className="field__error" id={`${id}-reason-error`} role="alert">{error}</p>}
        </fieldset>
        <div className="field">
          <label htmlFor={`${id}-comment`}>{m['tickets.detail.closeComment']}</label>
          <textarea id={`${id}-comment`} name="closeComment" rows={3} maxLength={TEXT_MAX} value={comment} disabled={sending} onChange={(e) => setComment(e.target.value)} />
        </div>
        <button type="submit" className="btn" disabled={sending}>{sending ? m['tickets.detail.sending'] : m['tickets.detail.closeSubmit']}</button>
      </form>
    </section>
  );
}
