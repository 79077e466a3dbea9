// npm run prerender: incremental prerender of every static site × locale route into dist/static/.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerender } from '../src/server/prerender/run.ts';
import { formatProgress, killAtStepFromEnv, prerenderOptionsFromEnv } from '../src/server/prerender/cli-options.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Runs the prerender with a progress line; returns the result or exits non-zero with a clear
 * message (`rethrow`: throws instead, for a caller that can carry on without it).
 */
export async function runPrerenderCli(opts: { all?: boolean; rethrow?: boolean } = {}) {
  const tty = process.stdout.isTTY;
  let lastLine = '';
  try {
    const onStep = killAtStepFromEnv(process.env);
    const result = await prerender({
      ...prerenderOptionsFromEnv(root),
      ...(onStep ? { onStep } : {}),
      force: { all: opts.all },
      onProgress: (p) => {
        const line = `prerender ${formatProgress(p)}`;
        if (tty) process.stdout.write(`\r${line.padEnd(lastLine.length)}`);
        lastLine = line;
      },
    });
    if (tty) process.stdout.write('\n');
    console.log(`prerender: ${result.rendered} rendered, ${result.unchanged} unchanged, ${result.removed} removed of ${result.total} routes in ${result.seconds.toFixed(2)} s (${Math.round(result.pagesPerSecond)} pages/s; link copy ${result.linkSeconds.toFixed(2)} s)${result.releaseId ? `, release ${result.releaseId}` : ', nothing changed'}`);
    if (result.failed.length) console.warn(`prerender: ${result.failed.length} routes did not render: ${result.failed.slice(0, 10).join(', ')}`);
    return result;
  } catch (err) {
    if (tty) process.stdout.write('\n');
    console.error(`prerender failed, the previous output is untouched: ${(err as Error).message}`);
    if (opts.rethrow) throw err;
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runPrerenderCli({ all: process.argv.includes('--all') });
}
