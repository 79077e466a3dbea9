import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A port nobody listens on right now (the dev server insists on the one it is given). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

let child: ChildProcess | null = null;
const dataDirs: string[] = [];
afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm run dev', () => {
  it('starts the emulators and the Astro dev server, which renders /en on demand with hot reloading', async () => {
    const port = await freePort();
    // The identity and ticketing emulators get free ports and fresh data folders too (their defaults may be taken).
    const data = mkdtempSync(join(tmpdir(), 'kmx-dev-test-'));
    dataDirs.push(data);
    const env: Record<string, string | undefined> = {
      ...process.env, PORT: String(port), CONTENT_HUB_PORT: '0', CATALOGUE_PORT: '0', CI: 'true',
      IDENTITY_PORT: String(await freePort()), IDENTITY_DATA_DIR: join(data, 'identity'),
      TICKETING_PORT: String(await freePort()), TICKETING_DATA_DIR: join(data, 'ticketing'), FORMS_DATA_DIR: join(data, 'forms'),
    };
    // As from a shell: no endpoints (so the emulators start), and none of vitest's variables
    // (Astro's dev server skips its request handler when it sees VITEST).
    for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'NODE_ENV') delete env[key];
    delete env.CONTENT_ENDPOINT;
    delete env.CATALOGUE_ENDPOINT;
    child = spawn(process.execPath, [join(root, 'scripts/dev.ts')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const ready = new Promise<void>((resolve, reject) => {
      const seen = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(`on http://localhost:${port}`)) resolve();
      };
      child!.stdout!.on('data', seen);
      child!.stderr!.on('data', seen);
      child!.once('exit', (code) => reject(new Error(`npm run dev exited with ${code}:\n${output}`)));
    });
    await ready;
    expect(output).toMatch(/emulators: content hub http:\/\/127\.0\.0\.1:\d+\/graphql/);
    expect(output).toContain(`ticketing http://127.0.0.1:${env.TICKETING_PORT}/graphql`);

    const res = await fetch(`http://127.0.0.1:${port}/en`);
    const html = await res.text();
    expect(res.status, html.slice(0, 500)).toBe(200);
    expect(html).toMatch(/<html lang="en"/);
    expect(html).toMatch(/<h1[^>]*>[^<]+/);
    // Served by Vite's dev server: the page loads its hot-reloading client.
    expect(html).toContain('/@vite/client');
    // Only a hang catcher: Vite's first compile of the whole app took more than a minute at a load
    // of 20 on two cores. The test waits for the server's own "ready" line, not for time.
  }, 300_000);
});
