import { useEffect, useState } from 'react';

/**
 * False on the server and while React hydrates the server HTML, true after mount: the one way an
 * island knows it is live. Use it to keep controls disabled until they work, and to render state
 * from the browser (stores, storage, location) only after hydration, so the first client render
 * equals the server HTML even when islands sharing a store hydrate at different times.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
