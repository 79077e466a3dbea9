// npm run test:e2e: finds (or installs) a Chromium, then runs Playwright with it. Extra arguments
// go to Playwright (npm run test:e2e -- tests/e2e/spine.spec.ts).
import { spawn } from 'node:child_process';
import { ensureBrowser } from './browser.ts';

const browser = ensureBrowser();
if (!browser) process.exit(1);

const child = spawn('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, CHROMIUM_PATH: browser },
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
