import { scaleLinear, scaleUtc } from 'd3-scale';
import { line } from 'd3-shape';

/**
 * The geometry of a line chart drawn on the server (pure: no DOM, no I/O). The view turns it into
 * SVG; all text (tick labels) is formatted by the caller's locale-aware formatters.
 */

export interface ChartPoint {
  /** A calendar day, `2022-12-30`. */
  date: string;
  value: number;
}

export interface ChartSeries {
  name: string;
  points: readonly ChartPoint[];
}

/** How a line is told apart without colour: its dash pattern and its point marker. */
export interface LineStyle {
  /** SVG stroke-dasharray, null for a solid line. */
  dash: string | null;
  marker: 'circle' | 'square' | 'triangle' | 'diamond';
}

/** Line styles in series order: solid with circles, dashed with squares, dotted with triangles, dash-dot with diamonds. */
export const LINE_STYLES: readonly LineStyle[] = [
  { dash: null, marker: 'circle' },
  { dash: '10 6', marker: 'square' },
  { dash: '3 5', marker: 'triangle' },
  { dash: '12 5 3 5', marker: 'diamond' },
];

export interface ChartOptions {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
  formatValue: (value: number) => string;
  formatDate: (isoDay: string) => string;
  /** At most this many labelled dates on the x axis (default 6). */
  xTicks?: number;
  /** About this many value ticks (default 5; d3 picks round values). */
  yTicks?: number;
  /** A value the y axis must include and that is drawn as a reference line (e.g. 100 for an index). */
  reference?: number;
}

export interface Tick {
  /** Position along its axis, in chart units. */
  at: number;
  label: string;
}

export interface SeriesGeometry {
  name: string;
  /** The SVG path of the line. */
  path: string;
  style: LineStyle;
  markers: { x: number; y: number }[];
}

export interface ChartGeometry {
  width: number;
  height: number;
  plot: { left: number; top: number; right: number; bottom: number };
  series: SeriesGeometry[];
  xTicks: Tick[];
  yTicks: Tick[];
  /** The y position of the reference line, if any. */
  reference: number | null;
}

const round = (n: number) => Math.round(n * 10) / 10;
const utc = (isoDay: string) => new Date(`${isoDay.slice(0, 10)}T00:00:00Z`);

/**
 * Indexes of at most `count` points to label, evenly spaced, always the first and the last
 * (the last only when it is not crowded by the one before).
 */
export function tickIndexes(length: number, count: number): number[] {
  if (length <= 0) return [];
  if (length <= count) return Array.from({ length }, (_, i) => i);
  const step = Math.ceil((length - 1) / (Math.max(count, 2) - 1));
  const out: number[] = [];
  for (let i = 0; i < length; i += step) out.push(i);
  const last = length - 1;
  if (out[out.length - 1] !== last) {
    if (last - out[out.length - 1]! < step / 2) out.pop();
    out.push(last);
  }
  return out;
}

/** The geometry of one or more lines over shared dates (the first series' dates label the x axis). */
export function lineChart(series: readonly ChartSeries[], opts: ChartOptions): ChartGeometry {
  const { width, height, margin } = opts;
  const plot = { left: margin.left, top: margin.top, right: width - margin.right, bottom: height - margin.bottom };
  const all = series.flatMap((s) => s.points);
  if (all.length === 0) return { width, height, plot, series: [], xTicks: [], yTicks: [], reference: null };

  const times = all.map((p) => utc(p.date).getTime());
  const x = scaleUtc().domain([new Date(Math.min(...times)), new Date(Math.max(...times))]).range([plot.left, plot.right]);
  const values = all.map((p) => p.value);
  if (opts.reference !== undefined) values.push(opts.reference);
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (lo === hi) { lo -= 1; hi += 1; }
  const y = scaleLinear().domain([lo, hi]).nice(opts.yTicks ?? 5).range([plot.bottom, plot.top]);

  const path = line<ChartPoint>().x((p) => x(utc(p.date))).y((p) => y(p.value)).digits(1);
  const geometry: SeriesGeometry[] = series.map((s, i) => ({
    name: s.name,
    path: path(s.points as ChartPoint[]) ?? '',
    style: LINE_STYLES[i % LINE_STYLES.length]!,
    markers: s.points.map((p) => ({ x: round(x(utc(p.date))), y: round(y(p.value)) })),
  }));

  const dates = series[0]?.points ?? [];
  const xTicks = tickIndexes(dates.length, opts.xTicks ?? 6).map((i) => ({ at: round(x(utc(dates[i]!.date))), label: opts.formatDate(dates[i]!.date) }));
  const yTicks = y.ticks(opts.yTicks ?? 5).map((v) => ({ at: round(y(v)), label: opts.formatValue(v) }));
  return { width, height, plot, series: geometry, xTicks, yTicks, reference: opts.reference === undefined ? null : round(y(opts.reference)) };
}

export interface SeriesSummary {
  first: ChartPoint;
  last: ChartPoint;
  min: ChartPoint;
  max: ChartPoint;
}

/** First, last, lowest and highest point of a series (the earliest one on ties): what a chart's description tells. */
export function summarize(points: readonly ChartPoint[]): SeriesSummary | null {
  if (points.length === 0) return null;
  let min = points[0]!;
  let max = points[0]!;
  for (const p of points) {
    if (p.value < min.value) min = p;
    if (p.value > max.value) max = p;
  }
  return { first: points[0]!, last: points[points.length - 1]!, min, max };
}

/** The SVG path of a point marker of a given shape, centred on (x, y). */
export function markerPath(shape: LineStyle['marker'], x: number, y: number, r = 3.5): string {
  const n = (v: number) => round(v);
  switch (shape) {
    case 'circle': return `M${n(x - r)},${n(y)}a${r},${r} 0 1,0 ${n(2 * r)},0a${r},${r} 0 1,0 ${n(-2 * r)},0Z`;
    case 'square': return `M${n(x - r)},${n(y - r)}h${n(2 * r)}v${n(2 * r)}h${n(-2 * r)}Z`;
    case 'triangle': return `M${n(x)},${n(y - r * 1.2)}L${n(x + r * 1.1)},${n(y + r * 0.8)}L${n(x - r * 1.1)},${n(y + r * 0.8)}Z`;
    case 'diamond': return `M${n(x)},${n(y - r * 1.3)}L${n(x + r * 1.3)},${n(y)}L${n(x)},${n(y + r * 1.3)}L${n(x - r * 1.3)},${n(y)}Z`;
  }
}
