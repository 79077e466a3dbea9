import { describe, expect, it } from 'vitest';
import { MAP_WIDTH, mapMarkers, projectPoint, ringsToPath, simplifyLine, worldMapFrame } from './world-map.ts';

describe('projectPoint / mapMarkers', () => {
  it('puts places where they are: west left of east, north above south, Greenwich in the middle', () => {
    const [zx, zy] = projectPoint(47.39, 8.51); // Zürich
    const [nx, ny] = projectPoint(42.47, -83.47); // Novi, Michigan
    const [sx, sy] = projectPoint(-23.58, -46.68); // São Paulo
    const [tx] = projectPoint(35.46, 139.63); // Yokohama
    expect(nx).toBeLessThan(sx);
    expect(sx).toBeLessThan(zx);
    expect(zx).toBeLessThan(tx);
    expect(zy).toBeLessThan(sy);
    expect(ny).toBeLessThan(sy);
    expect(projectPoint(0, 0)[0]).toBeCloseTo(MAP_WIDTH / 2, 0);
  });

  it('places every marker inside the map\'s frame, one per entry, rounded to a tenth', () => {
    const frame = worldMapFrame();
    const [, top, width, height] = frame.viewBox.split(' ').map(Number) as [number, number, number, number];
    const entries = [
      { id: 'a', coordinates: { lat: 1.33, lon: 103.9 } },
      { id: 'b', coordinates: { lat: -38.02, lon: 145.21 } },
      { id: 'c', coordinates: { lat: 53.549, lon: 10.04 } },
    ];
    const markers = mapMarkers(entries);
    expect(markers.map((m) => m.id)).toEqual(['a', 'b', 'c']);
    for (const m of markers) {
      expect(m.x).toBeGreaterThan(0);
      expect(m.x).toBeLessThan(width);
      expect(m.y).toBeGreaterThan(top);
      expect(m.y).toBeLessThan(top + height);
      expect(Math.round(m.x * 10) / 10).toBe(m.x);
    }
  });
});

describe('worldMapFrame', () => {
  it('draws the land as one small path, computed once per process', () => {
    const frame = worldMapFrame();
    expect(frame.width).toBe(MAP_WIDTH);
    expect(frame.land).toMatch(/^M\d+ \d+l/);
    expect(frame.land.length).toBeGreaterThan(5_000);
    expect(frame.land.length).toBeLessThan(16_000);
    expect(worldMapFrame()).toBe(frame);
  });
});

describe('simplifyLine / ringsToPath', () => {
  it('drops points within the tolerance and keeps corners', () => {
    expect(simplifyLine([[0, 0], [5, 0.2], [10, 0], [10, 10]], 0.5)).toEqual([[0, 0], [10, 0], [10, 10]]);
    expect(simplifyLine([[0, 0], [5, 3], [10, 0]], 0.5)).toEqual([[0, 0], [5, 3], [10, 0]]);
  });

  it('writes rings with relative integer steps', () => {
    expect(ringsToPath([[[10.4, 20.6], [15, 20.6], [15, 10]]])).toBe('M10 21l5 0l0-11z');
    expect(ringsToPath([[[0, 0], [1, 1]]])).toBe('');
  });
});
