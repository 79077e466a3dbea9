import { geoNaturalEarth1, geoPath, type GeoProjection } from 'd3-geo';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import landTopology from 'world-atlas/land-110m.json' with { type: 'json' };

/**
 * The directory's world map, drawn on the server: the land of the world-atlas 110m topology in
 * the Natural Earth projection (a compromise projection: no continent is blown up like in
 * Mercator, and it reads as "the world" at a glance), plus a marker per location. The land is
 * projected, simplified and written as a compact path once per process (~11 KB, integer
 * coordinates, relative commands); markers are projected per render.
 */

export const MAP_WIDTH = 960;
/** The latitudes the map shows (Antarctica and the high Arctic hold no locations). */
const NORTH = 84;
const SOUTH = -58;
/** Douglas–Peucker tolerance and the smallest island kept, in map pixels. */
const TOLERANCE = 0.8;
const MIN_AREA = 3;

type Point = [number, number];

export interface WorldMapFrame {
  /** `minX minY width height` of the map's SVG. */
  viewBox: string;
  width: number;
  height: number;
  /** The land as one SVG path. */
  land: string;
}

export interface MapMarker {
  id: string;
  x: number;
  y: number;
}

let projection: GeoProjection | null = null;
let frame: WorldMapFrame | null = null;

function theProjection(): GeoProjection {
  projection ??= geoNaturalEarth1().fitWidth(MAP_WIDTH, { type: 'Sphere' });
  return projection;
}

/** A coordinate pair on the map (x to the right, y down), to a tenth of a pixel. */
export function projectPoint(lat: number, lon: number): Point {
  const p = theProjection()([lon, lat]) ?? [0, 0];
  return [Math.round(p[0] * 10) / 10, Math.round(p[1] * 10) / 10];
}

/** One marker per entry, in the entries' order. */
export function mapMarkers(entries: readonly { id: string; coordinates: { lat: number; lon: number } }[]): MapMarker[] {
  return entries.map((e) => {
    const [x, y] = projectPoint(e.coordinates.lat, e.coordinates.lon);
    return { id: e.id, x, y };
  });
}

/** Douglas–Peucker: the points of a line that keep it within `tolerance` pixels. */
export function simplifyLine(points: readonly Point[], tolerance: number): Point[] {
  if (points.length < 3) return [...points];
  const keep = new Uint8Array(points.length);
  keep[0] = 1;
  keep[points.length - 1] = 1;
  const stack: Point[] = [[0, points.length - 1]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    const [ax, ay] = points[a]!;
    const [bx, by] = points[b]!;
    const dx = bx - ax;
    const dy = by - ay;
    const len = Math.hypot(dx, dy);
    let max = 0;
    let index = -1;
    for (let i = a + 1; i < b; i++) {
      const [px, py] = points[i]!;
      const d = len === 0 ? Math.hypot(px - ax, py - ay) : Math.abs(dy * px - dx * py + bx * ay - by * ax) / len;
      if (d > max) {
        max = d;
        index = i;
      }
    }
    if (max > tolerance && index > 0) {
      keep[index] = 1;
      stack.push([a, index], [index, b]);
    }
  }
  return points.filter((_, i) => keep[i]);
}

function ringArea(ring: readonly Point[]): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x, y] = ring[i]!;
    const [nx, ny] = ring[(i + 1) % ring.length]!;
    sum += x * ny - nx * y;
  }
  return Math.abs(sum / 2);
}

/** Rings as one path: absolute start, then relative integer steps (`M10 20l3-1l…z`). */
export function ringsToPath(rings: readonly (readonly Point[])[]): string {
  let out = '';
  for (const ring of rings) {
    const pts = ring.map(([x, y]) => [Math.round(x), Math.round(y)] as Point);
    if (pts.length < 3) continue;
    let [px, py] = pts[0]!;
    out += `M${px} ${py}`;
    for (const [x, y] of pts.slice(1)) {
      if (x === px && y === py) continue;
      out += `l${x - px}${y - py < 0 ? '' : ' '}${y - py}`;
      px = x;
      py = y;
    }
    out += 'z';
  }
  return out;
}

/** The map's frame and land path, computed on first use and kept for the process. */
export function worldMapFrame(): WorldMapFrame {
  if (frame) return frame;
  const proj = theProjection();
  const top = Math.floor(projectPoint(NORTH, 0)[1]);
  const bottom = Math.ceil(projectPoint(SOUTH, 0)[1]);
  const topology = landTopology as unknown as Topology<{ land: GeometryCollection }>;
  const rings: Point[][] = [];
  let ring: Point[] = [];
  // d3 cuts the rings at the antimeridian and hands the projected points to this "context".
  geoPath(proj, {
    moveTo(x: number, y: number) { ring = [[x, y]]; rings.push(ring); },
    lineTo(x: number, y: number) { ring.push([x, y]); },
    closePath() {},
    arc() {},
  } as unknown as CanvasRenderingContext2D)(feature(topology, topology.objects.land));
  const kept = rings
    .filter((r) => ringArea(r) >= MIN_AREA && r.some(([, y]) => y < bottom))
    .map((r) => simplifyLine(r, TOLERANCE));
  frame = { viewBox: `0 ${top} ${MAP_WIDTH} ${bottom - top}`, width: MAP_WIDTH, height: bottom - top, land: ringsToPath(kept) };
  return frame;
}
