import { useId, useState } from 'react';
import { formatFileSize } from '../../i18n/format.ts';
import { newIdempotencyKey } from '../../lib/idempotency/key.ts';
import { tr, type Messages } from '../customer-area/island-kit.tsx';
import { validateFile } from './validation.ts';

export const FILE_KEYS = [
  'tickets.files.label', 'tickets.files.hint', 'tickets.files.tooLarge', 'tickets.files.notMedia', 'tickets.files.remove', 'tickets.files.selected',
  'tickets.files.progress', 'tickets.files.done', 'tickets.files.failed',
] as const;

/** One file waiting for upload, uploading, or done. */
export interface PickedFile {
  key: string;
  file: File;
  /** 0–1 while uploading. */
  progress: number;
  state: 'waiting' | 'uploading' | 'done' | 'failed';
  /** Made when the file is picked and kept for its retries: the service attaches it once. */
  idempotencyKey: string;
}

let seq = 0;

/**
 * Choosing images and videos to attach (spec §5: at most 100 MB each): files that are too large or
 * of another type are refused here with a message and never sent.
 */
export function FilePicker({ files, onChange, m, locale, disabled }: { files: PickedFile[]; onChange: (files: PickedFile[]) => void; m: Messages<(typeof FILE_KEYS)[number]>; locale: string; disabled?: boolean }) {
  const id = useId();
  const [refused, setRefused] = useState<string[]>([]);
  const onPick = (list: FileList | null) => {
    if (!list) return;
    const accepted: PickedFile[] = [];
    const errors: string[] = [];
    for (const file of Array.from(list)) {
      const problem = validateFile(file);
      if (problem) errors.push(tr(m, problem, { name: file.name }));
      else accepted.push({ key: `f${++seq}`, file, progress: 0, state: 'waiting', idempotencyKey: newIdempotencyKey() });
    }
    setRefused(errors);
    onChange([...files, ...accepted]);
  };
  return (
    <div className="field file-picker">
      <label htmlFor={`${id}-input`}>{m['tickets.files.label']}</label>
      <p className="services__hint" id={`${id}-hint`}>{m['tickets.files.hint']}</p>
      <input id={`${id}-input`} type="file" multiple accept="image/*,video/*" disabled={disabled}
        aria-describedby={`${id}-hint${refused.length ? ` ${id}-refused` : ''}`}
        onChange={(e) => { onPick(e.target.files); e.target.value = ''; }} />
      <div id={`${id}-refused`} aria-live="assertive">
        {refused.length > 0 && <ul className="field__error file-picker__refused">{refused.map((r) => <li key={r}>{r}</li>)}</ul>}
      </div>
      {files.length > 0 && (
        <ul className="file-picker__list" aria-label={m['tickets.files.selected']}>
          {files.map((f) => (
            <li key={f.key} className={`file-picker__item file-picker__item--${f.state}`}>
              <span className="file-picker__name">{f.file.name} <span className="services__muted">({formatFileSize(f.file.size, locale)})</span></span>
              {f.state === 'waiting' && !disabled && (
                <button type="button" className="btn btn--secondary btn--small" onClick={() => onChange(files.filter((x) => x.key !== f.key))}>
                  {tr(m, 'tickets.files.remove', { name: f.file.name })}
                </button>
              )}
              {f.state !== 'waiting' && (
                <>
                  <progress max={1} value={f.progress} aria-label={tr(m, 'tickets.files.progress', { name: f.file.name })} />
                  <span className="file-picker__state">
                    {f.state === 'done' ? tr(m, 'tickets.files.done', { name: f.file.name }) : f.state === 'failed' ? tr(m, 'tickets.files.failed', { name: f.file.name }) : `${Math.round(f.progress * 100)} %`}
                  </span>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Uploads the waiting files one after another, reporting progress; answers whether all arrived,
 * and for a failure whether its outcome is unknown or the upload stalled (see WriteFailure). Each
 * file goes with its own idempotency key, so uploading a failed file again attaches it once.
 * @example await uploadAll(files, (file, p, key) => ticketing.addAttachment(id, file, p, undefined, key).then((r) => r.ok || r.errors[0]!.message), setFiles)
 */
export async function uploadAll(
  files: PickedFile[],
  upload: (file: File, onProgress: (loaded: number, total: number) => void, idempotencyKey: string) => Promise<true | string>,
  update: (files: PickedFile[]) => void,
): Promise<{ ok: boolean; detail?: string; unknown?: boolean; stalled?: boolean }> {
  let current = files.map((f) => ({ ...f }));
  const set = (key: string, patch: Partial<PickedFile>) => { current = current.map((f) => (f.key === key ? { ...f, ...patch } : f)); update(current); };
  let detail: string | undefined;
  let unknown = false;
  let stalled = false;
  for (const f of files) {
    if (f.state === 'done') continue;
    set(f.key, { state: 'uploading', progress: 0 });
    try {
      const outcome = await upload(f.file, (loaded, total) => set(f.key, { progress: total ? loaded / total : 0 }), f.idempotencyKey);
      set(f.key, outcome === true ? { state: 'done', progress: 1 } : { state: 'failed' });
      if (outcome !== true) detail ??= `${f.file.name}: ${outcome}`;
    } catch (err) {
      set(f.key, { state: 'failed' });
      detail ??= `${f.file.name}: ${err instanceof Error ? err.message : String(err)}`;
      const e = err as { outcomeUnknown?: unknown; stalled?: unknown };
      if (e?.outcomeUnknown === true) unknown = true;
      if (e?.stalled === true) stalled = true;
    }
  }
  return { ok: current.every((f) => f.state === 'done'), ...(detail ? { detail } : {}), ...(unknown ? { unknown } : {}), ...(stalled ? { stalled } : {}) };
}
