/** A rotating indicator (period 1080 ms, spec §9); hidden from assistive tech, the caller says what is loading. */
export function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}
