import { atom } from 'nanostores';
import type { MeasurementSystem } from '../../site/types.ts';
import { readCookie } from '../platform/cookies.ts';
import { MEASUREMENT_COOKIE, MEASUREMENT_EVENT, MEASUREMENT_STORAGE_KEY, parseMeasurement, writeChoice } from './preference.ts';

export { MEASUREMENT_COOKIE, MEASUREMENT_STORAGE_KEY, parseMeasurement };

/** The visitor's measurement system; starts as what the server rendered, then the saved choice. */
export const $measurement = atom<MeasurementSystem>('Metric');

function readStorage(): string | null {
  try {
    return localStorage.getItem(MEASUREMENT_STORAGE_KEY);
  } catch {
    return null;
  }
}

let initialised = false;

/**
 * Sets the store from the saved choice (localStorage, else the cookie), else the system the page
 * was rendered in (the country's default). Keeps the cookie in step with localStorage so the
 * server renders the same choice. Safe to call from every island.
 */
export function initMeasurement(rendered: MeasurementSystem): MeasurementSystem {
  if (typeof document === 'undefined') return rendered;
  if (!initialised) {
    initialised = true;
    const stored = parseMeasurement(readStorage());
    const cookie = parseMeasurement(readCookie(MEASUREMENT_COOKIE));
    const chosen = stored ?? cookie ?? rendered;
    if (stored && stored !== cookie) writeChoice(stored);
    $measurement.set(chosen);
    // Another tab changed the choice.
    window.addEventListener('storage', (e) => {
      const next = e.key === MEASUREMENT_STORAGE_KEY ? parseMeasurement(e.newValue) : null;
      if (next) $measurement.set(next);
    });
    // The technical data's plain script (preference.ts) changed it on this page.
    window.addEventListener(MEASUREMENT_EVENT, (e) => {
      const next = parseMeasurement((e as CustomEvent<string>).detail);
      if (next) $measurement.set(next);
    });
  }
  return $measurement.get();
}

/** Saves the visitor's choice (cookie + localStorage); every island on the page follows at once. */
export function setMeasurement(system: MeasurementSystem): void {
  writeChoice(system);
  $measurement.set(system);
}
