import { useEffect, useState } from 'react';

/**
 * False on the server and during hydration, true after mount. The two news feed islands hydrate
 * at different times while sharing one store: rendering store state only once mounted keeps the
 * first client render equal to the server HTML (no hydration mismatch).
 */
export function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}
