import { describe, expect, it } from 'vitest';
import { LINE_STYLES, lineChart, markerPath, summarize, tickIndexes, type ChartOptions } from './chart.ts';

const opts: ChartOptions = {
  width: 500,
  height: 300,
  margin: { top: 10, right: 20, bottom: 40, left: 60 },
  formatValue: (v) => `v${v}`,
  formatDate: (d) => d.slice(0, 7),
};

describe('lineChart', () => {
  const points = [
    { date: '2021-01-01', value: 200 },
    { date: '2021-01-11', value: 250 },
    { date: '2021-01-21', value: 300 },
  ];

  it('maps the first and last day to the plot edges and values to a nice y domain', () => {
    const g = lineChart([{ name: 'A', points }], opts);
    expect(g.plot).toEqual({ left: 60, top: 10, right: 480, bottom: 260 });
    // y domain 200..300 is already nice: 200 at the bottom, 300 at the top, 250 halfway.
    expect(g.series[0]!.markers).toEqual([{ x: 60, y: 260 }, { x: 270, y: 135 }, { x: 480, y: 10 }]);
    expect(g.series[0]!.path).toBe('M60,260L270,135L480,10');
  });

  it('labels round y ticks with the given formatter, from bottom to top', () => {
    const g = lineChart([{ name: 'A', points }], opts);
    expect(g.yTicks.map((t) => t.label)).toEqual(['v200', 'v220', 'v240', 'v260', 'v280', 'v300']);
    expect(g.yTicks[0]!.at).toBe(260);
    expect(g.yTicks[g.yTicks.length - 1]!.at).toBe(10);
  });

  it('widens the domain to nice values and to the reference line', () => {
    const g = lineChart([{ name: 'A', points: [{ date: '2021-01-01', value: 103 }, { date: '2021-02-01', value: 118 }] }], { ...opts, reference: 100 });
    expect(g.yTicks[0]!.label).toBe('v100');
    expect(g.reference).toBe(260);
  });

  it('labels x ticks at data dates, first and last included', () => {
    const monthly = Array.from({ length: 24 }, (_, i) => ({ date: `${2021 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-15`, value: i }));
    const g = lineChart([{ name: 'A', points: monthly }], opts);
    expect(g.xTicks.map((t) => t.label)).toEqual(['2021-01', '2021-06', '2021-11', '2022-04', '2022-09', '2022-12']);
    expect(g.xTicks[0]!.at).toBe(60);
    expect(g.xTicks[g.xTicks.length - 1]!.at).toBe(480);
  });

  it('gives each series its own dash pattern and marker, so colour is not needed to tell them apart', () => {
    const g = lineChart([{ name: 'A', points }, { name: 'B', points }], opts);
    expect(g.series.map((s) => s.style)).toEqual([LINE_STYLES[0], LINE_STYLES[1]]);
    expect(new Set(LINE_STYLES.map((s) => `${s.dash}|${s.marker}`)).size).toBe(LINE_STYLES.length);
  });

  it('draws a flat line in the middle instead of dividing by zero', () => {
    const g = lineChart([{ name: 'A', points: [{ date: '2021-01-01', value: 5 }, { date: '2021-02-01', value: 5 }] }], opts);
    expect(g.series[0]!.markers.every((m) => m.y === 135)).toBe(true);
  });

  it('is empty without points', () => {
    expect(lineChart([], opts).series).toEqual([]);
  });
});

describe('tickIndexes', () => {
  it('keeps every index when they fit', () => {
    expect(tickIndexes(4, 6)).toEqual([0, 1, 2, 3]);
  });
  it('spaces ticks evenly and ends on the last point without crowding it', () => {
    expect(tickIndexes(25, 6)).toEqual([0, 5, 10, 15, 20, 24]);
    expect(tickIndexes(12, 4)).toEqual([0, 4, 8, 11]);
    // 10 points, step 3: 0 3 6 9; the last is the 9th, nothing to add.
    expect(tickIndexes(10, 4)).toEqual([0, 3, 6, 9]);
    // 22 points, step 5: 0 5 10 15 20, then 21 is too close to 20: 20 gives way to the last.
    expect(tickIndexes(22, 6)).toEqual([0, 5, 10, 15, 21]);
    expect(tickIndexes(0, 6)).toEqual([]);
  });
});

describe('summarize', () => {
  it('finds first, last, lowest and highest (earliest on ties)', () => {
    const s = summarize([{ date: 'a', value: 3 }, { date: 'b', value: 1 }, { date: 'c', value: 5 }, { date: 'd', value: 1 }, { date: 'e', value: 4 }]);
    expect(s).toEqual({ first: { date: 'a', value: 3 }, last: { date: 'e', value: 4 }, min: { date: 'b', value: 1 }, max: { date: 'c', value: 5 } });
    expect(summarize([])).toBeNull();
  });
});

describe('markerPath', () => {
  it('draws closed shapes centred on the point', () => {
    expect(markerPath('square', 10, 10, 2)).toBe('M8,8h4v4h-4Z');
    for (const shape of ['circle', 'square', 'triangle', 'diamond'] as const) expect(markerPath(shape, 0, 0)).toMatch(/^M.*Z$/);
  });
});
