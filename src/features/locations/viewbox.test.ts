import { describe, expect, it } from 'vitest';
import { boxString, fitBox, markerRadius, parseBox } from './viewbox.ts';

const FRAME = { x: 0, y: 20, width: 960, height: 400 };

describe('fitBox', () => {
  it('shows the whole map without markers and when markers span it', () => {
    expect(fitBox([], FRAME)).toEqual(FRAME);
    expect(fitBox([{ x: 10, y: 30 }, { x: 950, y: 410 }], FRAME)).toEqual(FRAME);
  });

  it('zooms to the markers, padded, at least minWidth wide, in the map\'s aspect ratio and inside it', () => {
    const box = fitBox([{ x: 500, y: 100 }, { x: 520, y: 110 }], FRAME);
    expect(box.width).toBe(220);
    expect(box.width / box.height).toBeCloseTo(960 / 400);
    expect(box.x).toBeCloseTo(510 - 110);
    for (const p of [{ x: 500, y: 100 }, { x: 520, y: 110 }]) {
      expect(p.x).toBeGreaterThan(box.x);
      expect(p.x).toBeLessThan(box.x + box.width);
      expect(p.y).toBeGreaterThan(box.y);
      expect(p.y).toBeLessThan(box.y + box.height);
    }
    const corner = fitBox([{ x: 2, y: 22 }], FRAME);
    expect(corner.x).toBe(0);
    expect(corner.y).toBe(20);
  });

  it('widens for markers far apart vertically', () => {
    const box = fitBox([{ x: 500, y: 50 }, { x: 500, y: 350 }], FRAME);
    expect(box.height).toBeGreaterThanOrEqual(300);
  });
});

describe('parseBox / boxString / markerRadius', () => {
  it('round-trips a viewBox and scales the marker with the zoom', () => {
    expect(parseBox('0 20 960 400')).toEqual(FRAME);
    expect(boxString({ x: 1.234, y: 5, width: 220.06, height: 91.7 })).toBe('1.2 5 220.1 91.7');
    expect(markerRadius(FRAME, FRAME)).toBe(9);
    expect(markerRadius({ ...FRAME, width: 240 }, FRAME)).toBe(2.3);
  });
});
