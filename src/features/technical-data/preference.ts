import type { MeasurementSystem } from '../../site/types.ts';
import { readCookie } from '../platform/cookies.ts';
import { wakeIsland } from '../../../integrations/interaction/wake.ts';

/** Where the choice lives: a cookie the server reads (middleware) and localStorage. */
export const MEASUREMENT_COOKIE = 'measurement';
export const MEASUREMENT_STORAGE_KEY = 'komax.measurement';

/** 'Metric' or 'Imperial' from a stored value; anything else is no choice. */
export function parseMeasurement(value: string | null | undefined): MeasurementSystem | null {
  return value === 'Metric' || value === 'Imperial' ? value : null;
}

/** The visitor's saved choice (localStorage first, then the cookie), or null. */
export function savedMeasurement(): MeasurementSystem | null {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(MEASUREMENT_STORAGE_KEY);
  } catch {
    stored = null;
  }
  return parseMeasurement(stored) ?? parseMeasurement(readCookie(MEASUREMENT_COOKIE));
}

/**
 * A few lines of plain script for the technical data: the page was rendered in one system (a
 * prerendered page in the country's default); when the visitor saved the other one, the island
 * hydrates at once to show it, instead of waiting until it scrolls into view.
 */
export function wakeForSavedChoice(): void {
  for (const slot of document.querySelectorAll<HTMLElement>('[data-measurement-rendered]')) {
    const saved = savedMeasurement();
    if (saved && saved !== slot.dataset.measurementRendered) wakeIsland(slot.querySelector('astro-island'));
  }
}
