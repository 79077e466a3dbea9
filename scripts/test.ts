// npm test: the unit tests and the e2e tests, side by side. The e2e server's build is made first
// (astro build, mostly one core); then the unit tests run while the e2e run prerenders the
// release and starts its tests, so neither waits for the other. Playwright's output streams; the
// unit tests' output is kept and printed whole when they end (two reporters on one terminal would
// interleave line by line). Fails when either fails.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBrowser } from './browser.ts';
import { buildIfNeeded } from './build-if-needed.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Finished {
  code: number;
  seconds: number;
}

function run(args: string[], opts: { env?: NodeJS.ProcessEnv; capture?: string[] }): Promise<Finished> {
  const started = Date.now();
  const child = spawn('npx', args, { cwd: root, env: opts.env ?? process.env, stdio: opts.capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  if (opts.capture) {
    child.stdout!.on('data', (chunk: Buffer) => opts.capture!.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => opts.capture!.push(chunk.toString()));
  }
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => child.kill(sig));
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), seconds: Math.round((Date.now() - started) / 1000) }));
  });
}

async function main(): Promise<number> {
  const browser = ensureBrowser();
  if (!browser) return 1;
  // Before the unit tests start: scripts/dev.test.ts runs `astro dev`, which must not write the
  // project's .astro/ folder while `astro build` does. The e2e server then finds the build current.
  buildIfNeeded(root);

  const unitOutput: string[] = [];
  const unit = run(['vitest', 'run'], { capture: unitOutput });
  const e2e = run(['playwright', 'test', ...process.argv.slice(2)], { env: { ...process.env, CHROMIUM_PATH: browser } });
  const unitDone = await unit;
  process.stdout.write(`\n──── unit tests (vitest, beside the e2e run): ${unitDone.code === 0 ? 'passed' : 'FAILED'} in ${unitDone.seconds} s ────\n${unitOutput.join('')}\n──── end of the unit tests ────\n\n`);
  const e2eDone = await e2e;
  console.log(`npm test: unit tests ${unitDone.code === 0 ? 'passed' : 'FAILED'} (${unitDone.seconds} s), e2e tests ${e2eDone.code === 0 ? 'passed' : 'FAILED'} (${e2eDone.seconds} s)`);
  return unitDone.code || e2eDone.code;
}

process.exitCode = await main();
