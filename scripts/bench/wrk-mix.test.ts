import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findProgram } from '../system-package.ts';
import { CURVE_POINTS, addCounts, curvePercentile, luaString, mergedPercentile, parseWrkReport, splitConnections, wrkScript } from './wrk-mix.ts';

const curveOf = (latency: (p: number) => number): [number, number][] => CURVE_POINTS.map((p) => [p, latency(p)]);

describe('splitConnections', () => {
  it('splits 200 connections 140/40/20 by the mix', () => {
    expect(splitConnections(200, [70, 20, 10])).toEqual([140, 40, 20]);
  });
  it('adds up to the total and gives every kind a connection however small its weight', () => {
    const out = splitConnections(20, [50, 300, 1]);
    expect(out.reduce((a, b) => a + b, 0)).toBe(20);
    expect(Math.min(...out)).toBeGreaterThanOrEqual(1);
    expect(out[1]).toBeGreaterThan(out[0]!);
  });
  it('refuses fewer connections than kinds', () => {
    expect(() => splitConnections(2, [1, 1, 1])).toThrow(/cannot serve 3/);
  });
});

describe('mergedPercentile', () => {
  it('is a single run’s own percentile', () => {
    const curve = curveOf((p) => p * 1000);
    expect(mergedPercentile([{ requests: 1000, curve }], 99)).toBe(curvePercentile(curve, 99));
    expect(curvePercentile(curve, 99)).toBe(99);
  });
  it('weights runs by their requests: a slow kind with 10 % of the requests sets the overall p99', () => {
    // 90 % of the requests at 1–10 ms, 10 % at 100–200 ms: the overall p99 is the slow kind's p90.
    const fast = { requests: 9000, curve: curveOf((p) => 1000 + p * 90) };
    const slow = { requests: 1000, curve: curveOf((p) => 100_000 + p * 1000) };
    expect(mergedPercentile([fast, slow], 99)).toBeCloseTo(190, 0);
    expect(mergedPercentile([fast, slow], 50)).toBeLessThan(10);
  });
  it('reads a curve only up to its first latency above the candidate', () => {
    // A stray low value at the end of a curve (wrk answers 0 for percentile(100)) is no answer at 0 ms.
    const curve = curveOf((p) => (p === 100 ? 0 : 5000));
    expect(mergedPercentile([{ requests: 100, curve }], 50)).toBe(5);
  });
  it('is not a mean of the runs’ p99s', () => {
    const fast = { requests: 99_000, curve: curveOf(() => 1000) };
    const slow = { requests: 1000, curve: curveOf(() => 500_000) };
    // 1 % of all requests are slow: the p99 is still a fast answer, the p99.5 a slow one.
    expect(mergedPercentile([fast, slow], 99)).toBe(1);
    expect(mergedPercentile([fast, slow], 99.5)).toBe(500);
  });
});

describe('luaString', () => {
  it('escapes quotes, backslashes and control bytes, and keeps UTF-8', () => {
    expect(luaString('a"b\\c\nd 圧着')).toBe('"a\\"b\\\\c\\10d 圧着"');
  });
});

describe('addCounts', () => {
  it('adds status counts', () => {
    expect([...addCounts(new Map([[200, 1]]), { 200: 2, 404: 3 })]).toEqual([[200, 3], [404, 3]]);
  });
});

// The generated script in wrk itself (skipped where wrk is not installed): statuses, the expected
// check, fresh paths and bodies, the Host header per request.
const wrk = findProgram('wrk', ['/usr/bin/wrk']);
describe.skipIf(!wrk)('wrkScript in wrk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wrk-mix-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('counts statuses, tells unexpected ones apart and sends fresh paths, bodies and hosts', async () => {
    const seen: { path: string; host: string; body: string; method: string }[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (seen.length < 5000) seen.push({ path: req.url ?? '', host: req.headers.host ?? '', body, method: req.method ?? '' });
        res.statusCode = req.url?.startsWith('/gone') ? 404 : req.url === '/broken' ? 500 : 200;
        res.end('ok');
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as AddressInfo).port;
    const script = join(dir, 'mix.lua');
    writeFileSync(script, wrkScript([
      { method: 'GET', path: '/gone-{n}', host: 'a.example', fresh: true },
      { method: 'POST', path: '/api', host: 'b.example', body: '{"q":"圧着 {n}"}', fresh: true },
      { method: 'GET', path: '/broken', host: 'a.example' },
    ], [200, 404], { 'Accept-Encoding': 'gzip' }, 't'));
    const out = await new Promise<string>((ok, fail) => {
      const child = spawn(wrk!, ['-t', '1', '-c', '2', '-d', '1s', '-s', script, `http://127.0.0.1:${port}`]);
      let text = '';
      child.stdout.on('data', (c: Buffer) => (text += c.toString()));
      child.on('error', fail);
      child.on('exit', () => ok(text));
    });
    server.close();
    const report = parseWrkReport(out);
    expect(report.requests).toBeGreaterThan(10);
    expect(Object.keys(report.statuses).sort()).toEqual(['200', '404', '500']);
    // Only the 500s were not expected.
    expect(Object.keys(report.unexpected)).toEqual(['500']);
    expect(report.unexpected['500']).toBe(report.statuses['500']);
    expect(report.curve).toHaveLength(CURVE_POINTS.length);
    // Latencies in µs, ascending with the percentile, the last one the maximum (never wrk's 0).
    expect(report.curve[0]![1]).toBeGreaterThan(0);
    expect(report.curve.every(([, us], i) => i === 0 || us >= report.curve[i - 1]![1])).toBe(true);
    expect(mergedPercentile([report], 100)).toBeGreaterThan(0);
    const gone = seen.filter((s) => s.path.startsWith('/gone'));
    expect(new Set(gone.map((s) => s.path)).size).toBe(gone.length);
    expect(gone.every((s) => s.host === 'a.example')).toBe(true);
    const posts = seen.filter((s) => s.method === 'POST');
    expect(posts.length).toBeGreaterThan(1);
    expect(posts.every((s) => s.host === 'b.example' && /^\{"q":"圧着 t1n\d+"\}$/.test(s.body))).toBe(true);
    expect(new Set(posts.map((s) => s.body)).size).toBe(posts.length);
  });
});
