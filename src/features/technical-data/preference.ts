import type { MeasurementSystem } from '../../site/types.ts';
import { readCookie, writeCookie } from '../platform/cookies.ts';

/** Where the choice lives: a cookie the server reads (middleware) and localStorage. */
export const MEASUREMENT_COOKIE = 'measurement';
export const MEASUREMENT_STORAGE_KEY = 'komax.measurement';

/** Dispatched on window with the system as detail when the visitor changes it; the store (measurement.ts) follows. */
export const MEASUREMENT_EVENT = 'measurement';

const ONE_YEAR = 60 * 60 * 24 * 365;

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
    // Blocked storage: the cookie decides.
  }
  return parseMeasurement(stored) ?? parseMeasurement(readCookie(MEASUREMENT_COOKIE));
}

/** Saves the visitor's choice: the cookie (the server renders it) and localStorage. */
export function writeChoice(system: MeasurementSystem): void {
  writeCookie(MEASUREMENT_COOKIE, system, ONE_YEAR);
  try {
    localStorage.setItem(MEASUREMENT_STORAGE_KEY, system);
  } catch {
    // Storage may be full or blocked: the cookie still carries the choice.
  }
}

/** Shows one system in a technical data block (TechnicalDataSection.astro): checks its radio (CSS does the rest). */
export function showSystem(root: HTMLElement, system: MeasurementSystem): void {
  const radio = root.querySelector<HTMLInputElement>(`input[value="${system}"]`);
  if (radio) radio.checked = true;
}

/**
 * A few lines of plain script for the technical data (both systems are in the HTML, the switch is
 * plain radios): a saved choice the page was not rendered in (a prerendered page is in the
 * country's default) is shown at once; a change is saved (cookie and localStorage) and applies to
 * the other blocks and the islands of the page (MEASUREMENT_EVENT, which the store follows); other
 * tabs show it from their next page.
 */
export function initTechnicalData(): void {
  const roots = document.querySelectorAll<HTMLElement>('[data-technical-data]');
  const show = (system: MeasurementSystem | null) => {
    if (system) for (const root of roots) showSystem(root, system);
  };
  show(savedMeasurement());
  for (const root of roots) {
    // Only the block's two radios change: their values are the systems.
    root.addEventListener('change', (e) => {
      const system = (e.target as HTMLInputElement).value as MeasurementSystem;
      show(system);
      writeChoice(system);
      dispatchEvent(new CustomEvent(MEASUREMENT_EVENT, { detail: system }));
    });
  }
}
