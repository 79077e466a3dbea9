// Reads V8 .cpuprofile files (node --cpu-prof, or inspector Profiler.stop) and sums them up:
// self time and inclusive time per function, and self time per area (a package, a folder of the
// project, the garbage collector …). Used by `npm run bench:prerender -- --profile`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface CallFrame { functionName: string; url: string; lineNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
export interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

export interface ProfileSummary {
  /** Sampled time without (idle), in ms, over all profiles. */
  busyMs: number;
  self: [string, number][];
  inclusive: [string, number][];
  areas: [string, number][];
}

const shortUrl = (url: string): string => {
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) return path.slice(nm + '/node_modules/'.length);
  const at = path.search(/\/(?:src|dist|scripts|emulators|integrations)\//);
  return at >= 0 ? path.slice(at + 1) : path;
};

const areaOf = (frame: CallFrame): string => {
  if (!frame.url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  if (frame.url.startsWith('node:')) return 'node internals';
  const path = shortUrl(frame.url);
  if (path !== frame.url.replace(/^file:\/\//, '') && !/^(?:src|dist|scripts|emulators|integrations)\//.test(path)) {
    const parts = path.split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  return path.split('/').slice(0, 3).join('/');
};

/** Sums up every profile given; `top` entries per table. */
export function summarize(profiles: CpuProfile[], top = 25): ProfileSummary {
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const areas = new Map<string, number>();
  let busyMs = 0;
  for (const p of profiles) {
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const key = (f: CallFrame) => `${f.functionName || '(anonymous)'} ${f.url ? `${shortUrl(f.url)}:${f.lineNumber + 1}` : ''}`.trim();
    for (let i = 0; i < p.samples.length; i++) {
      const node = byId.get(p.samples[i]!)!;
      // The delta after a sample is the time it stands for.
      const ms = (p.timeDeltas[i + 1] ?? 0) / 1000;
      if (node.callFrame.functionName === '(idle)') continue;
      busyMs += ms;
      self.set(key(node.callFrame), (self.get(key(node.callFrame)) ?? 0) + ms);
      areas.set(areaOf(node.callFrame), (areas.get(areaOf(node.callFrame)) ?? 0) + ms);
      const seen = new Set<string>();
      for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
        const k = key(byId.get(id)!.callFrame);
        if (seen.has(k)) continue;
        seen.add(k);
        inclusive.set(k, (inclusive.get(k) ?? 0) + ms);
      }
    }
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return { busyMs, self: sorted(self), inclusive: sorted(inclusive).filter(([k]) => !k.startsWith('(root)')), areas: sorted(areas) };
}

export function readProfiles(dir: string): CpuProfile[] {
  return readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as CpuProfile);
}

/** The summary as text: CPU ms per page and the three tables. */
export function formatSummary(s: ProfileSummary, pages: number): string {
  const pct = (ms: number) => `${((ms / s.busyMs) * 100).toFixed(1).padStart(5)} %`;
  const table = (title: string, rows: [string, number][]) => [
    `  ${title}`,
    ...rows.map(([k, ms]) => `    ${ms.toFixed(0).padStart(7)} ms ${pct(ms)}  ${k}`),
  ].join('\n');
  return [
    `CPU profile: ${s.busyMs.toFixed(0)} ms busy over all threads, ${(s.busyMs / Math.max(1, pages)).toFixed(2)} ms CPU per page (${pages} pages)`,
    table('self time by area', s.areas),
    table('self time by function', s.self),
    table('inclusive time by function', s.inclusive),
  ].join('\n');
}
