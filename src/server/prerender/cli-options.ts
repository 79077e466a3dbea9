import { distDirOf, serverEnv } from '../env.ts';
import type { PrerenderOptions, Progress } from './run.ts';

/** Prerender options from the environment (the same variables the server reads). */
export function prerenderOptionsFromEnv(root: string): Omit<PrerenderOptions, 'onProgress'> {
  const env = serverEnv();
  return {
    distDir: distDirOf(env, root),
    env,
    mode: env.PRERENDER_HOSTS,
    port: Number(env.PUBLIC_PORT ?? env.PORT),
  };
}

/** `1,234/5,000  812 pages/s  4.6 s left` */
export function formatProgress(p: Progress): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return `${n(p.done)}/${n(p.total)}  ${Math.round(p.pagesPerSecond)} pages/s  ${p.secondsLeft.toFixed(1)} s left`;
}
