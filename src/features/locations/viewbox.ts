/**
 * The part of the world map the directory shows (pure, no imports: the browser's filter uses it
 * too): the frame around the visible markers, padded, never narrower than `minWidth` map pixels
 * and always of the whole map's aspect ratio (the image keeps its size when the filter changes).
 */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Marker radius on the whole map, in map pixels; zoomed in, markers keep their size on screen. */
export const MARKER_RADIUS = 9;

export function parseBox(viewBox: string): Box {
  const [x = 0, y = 0, width = 0, height = 0] = viewBox.trim().split(/[\s,]+/).map(Number);
  return { x, y, width, height };
}

const tenth = (n: number) => Math.round(n * 10) / 10;

export function boxString(b: Box): string {
  return `${tenth(b.x)} ${tenth(b.y)} ${tenth(b.width)} ${tenth(b.height)}`;
}

/** The box around `points` inside `frame` (the whole frame for no points). */
export function fitBox(points: readonly { x: number; y: number }[], frame: Box, minWidth = 220, padding = 40): Box {
  if (points.length === 0) return frame;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const aspect = frame.width / frame.height;
  const width = Math.min(frame.width, Math.max(minWidth, maxX - minX + 2 * padding, (maxY - minY + 2 * padding) * aspect));
  const height = width / aspect;
  const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);
  const x = clamp((minX + maxX) / 2 - width / 2, frame.x, frame.x + frame.width - width);
  const y = clamp((minY + maxY) / 2 - height / 2, frame.y, frame.y + frame.height - height);
  return { x, y, width, height };
}

/** The radius that draws a marker at the same screen size in `box` as {@link MARKER_RADIUS} on the whole frame. */
export function markerRadius(box: Box, frame: Box): number {
  return tenth((MARKER_RADIUS * box.width) / frame.width);
}
