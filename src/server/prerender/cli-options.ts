import * as v from 'valibot';
import { distDirOf, serverEnv } from '../boot/env.ts';
import { PRERENDER_STEPS, type PrerenderOptions, type PrerenderStep, type Progress } from './run.ts';

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

/**
 * `PRERENDER_KILL_AT=<step>`: the process kills itself (SIGKILL, as a crash or an OOM kill would)
 * when the run reaches that step, so the crash test (tests/e2e/release-crash.spec.ts) can stop a
 * run at every step deterministically. Unset in every real deployment; an unknown step is an error.
 */
export function killAtStepFromEnv(env: Record<string, string | undefined>, kill: () => void = () => process.kill(process.pid, 'SIGKILL')): ((step: PrerenderStep) => void) | undefined {
  const raw = env.PRERENDER_KILL_AT;
  if (!raw) return undefined;
  const parsed = v.safeParse(v.picklist(PRERENDER_STEPS), raw);
  if (!parsed.success) throw new Error(`PRERENDER_KILL_AT must be one of ${PRERENDER_STEPS.join(', ')} (got "${raw}")`);
  return (step) => { if (step === parsed.output) kill(); };
}
