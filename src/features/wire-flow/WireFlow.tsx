import { useEffect, useState } from 'react';
import { formatFileSize } from '../../i18n/format.ts';
import type { SoftwareVersion, WireFlow as WireFlowData } from '../../lib/ticketing/types.ts';
import { detailOf, Gate, Loading, ServiceError, SHARED_KEYS, tr, useServiceSession, type Messages, type ServiceIslandProps } from '../customer-area/island-kit.tsx';
import { ticketing } from '../tickets/api-client.ts';
import { formatDate } from '../tickets/view.ts';

export const MESSAGE_KEYS = [
  ...SHARED_KEYS,
  'wireFlow.service', 'wireFlow.intro', 'wireFlow.latest', 'wireFlow.version', 'wireFlow.releasedOn', 'wireFlow.releaseNotes', 'wireFlow.size',
  'wireFlow.checksum', 'wireFlow.download', 'wireFlow.olderVersions', 'wireFlow.cloudTitle', 'wireFlow.cloudText', 'wireFlow.openCloud',
  'wireFlow.linkExpiry', 'wireFlow.opensInNewTab',
] as const;

type Props = ServiceIslandProps<Key>;
/** The locale keys this island shows (its messages are typed by them). */
type Key = (typeof MESSAGE_KEYS)[number];

type Data = { kind: 'loading' } | { kind: 'ready'; wireFlow: WireFlowData } | { kind: 'failed'; detail: string };

/** /{locale}/mykomax/wire-flow: packages to download for on-premises users, the cloud entry point for cloud users. */
export function WireFlow({ messages: m, locale, paths, support }: Props) {
  const session = useServiceSession('wireFlow');
  const [data, setData] = useState<Data>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const ready = session.kind === 'ready';
  useEffect(() => {
    if (!ready) return;
    let live = true;
    ticketing.wireFlow().then((w) => { if (live) setData({ kind: 'ready', wireFlow: w }); }, (err: unknown) => { if (live) setData({ kind: 'failed', detail: detailOf(err) }); });
    return () => { live = false; };
  }, [ready, attempt]);

  if (session.kind !== 'ready') return <Gate state={session} m={m} service={m['wireFlow.service']!} dashboard={paths.dashboard} support={support} />;
  if (data.kind === 'loading') return <Loading m={m} />;
  if (data.kind === 'failed') return <ServiceError m={m} support={support} detail={data.detail} retry={() => setAttempt((n) => n + 1)} />;
  const w = data.wireFlow;
  if (w.userType === 'cloud') {
    return (
      <div className="wire-flow__cloud">
        <h2>{m['wireFlow.cloudTitle']}</h2>
        <p>{m['wireFlow.cloudText']}</p>
        <a className="btn" href={w.entryPointUrl} target="_blank" rel="noopener noreferrer">
          {m['wireFlow.openCloud']}<span className="visually-hidden"> {m['wireFlow.opensInNewTab']}</span>
        </a>
        <p className="services__muted wire-flow__url">{w.entryPointUrl}</p>
      </div>
    );
  }
  return (
    <div className="wire-flow">
      <p>{m['wireFlow.intro']}</p>
      <p className="services__muted">{m['wireFlow.linkExpiry']}</p>
      <ul className="wire-flow__packages">
        {w.packages.map((p) => {
          const [latest, ...older] = p.versions;
          return (
            <li key={p.id} className="wire-flow__package">
              <article aria-labelledby={`pkg-${p.id}`}>
                <h2 id={`pkg-${p.id}`}>{p.name}</h2>
                <p>{p.description}</p>
                {latest && <Version v={latest} m={m} locale={locale} title={tr(m, 'wireFlow.latest', { version: latest.version })} />}
                {older.length > 0 && (
                  <details className="wire-flow__older">
                    <summary>{m['wireFlow.olderVersions']} ({older.length})</summary>
                    {older.map((v) => <Version key={v.version} v={v} m={m} locale={locale} title={tr(m, 'wireFlow.version', { version: v.version })} />)}
                  </details>
                )}
              </article>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function Version({ v, m, locale, title }: { v: SoftwareVersion; m: Messages<Key>; locale: string; title: string }) {
  return (
    <section className="wire-flow__version">
      <h3>{title}</h3>
      <p className="services__muted">{tr(m, 'wireFlow.releasedOn', { date: formatDate(v.releasedOn, locale) })}</p>
      <h4>{m['wireFlow.releaseNotes']}</h4>
      <p className="ticket__text">{v.releaseNotes}</p>
      <dl className="wire-flow__facts">
        <div><dt>{m['wireFlow.size']}</dt><dd>{formatFileSize(v.size, locale)}</dd></div>
        <div><dt>{m['wireFlow.checksum']}</dt><dd><code className="wire-flow__sha">{v.sha256}</code></dd></div>
      </dl>
      <a className="btn" href={v.downloadUrl} download={v.fileName}>{tr(m, 'wireFlow.download', { file: v.fileName })}</a>
    </section>
  );
}
