// npm run dev: the emulators on loopback (unless CONTENT_ENDPOINT is set, as for npm start) and the
// Astro dev server with hot reloading on http://localhost:4321 (PORT, HOST). Every page, the
// middleware and the API routes render on demand from the sources; nothing is built or prerendered.
// The search API opens the embedded indexes of the last prerender (npm start) by itself.
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCAL_EDITOR_PASSWORD, LOCAL_REVALIDATE_SECRET, printSiteAddresses, startLocalEmulators, useLocalEditorPassword } from './local.ts';
import { EnvError, parseServerEnv } from '../src/server/boot/env.ts';
import { probeContentHub } from '../src/server/boot/startup.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  process.env.LOG_FORMAT ??= 'pretty';
  const emulators = await startLocalEmulators();
  process.env.REVALIDATE_SECRET ??= LOCAL_REVALIDATE_SECRET;
  const localEditor = useLocalEditorPassword();
  const env = parseServerEnv(process.env);
  const hubDown = await probeContentHub(env);
  if (hubDown) console.warn(`The content hub at ${env.CONTENT_ENDPOINT} does not answer (${hubDown.message}): pages answer 503 until it does.`);

  const { dev } = await import('astro');
  const server = await dev({
    root,
    server: { host: env.HOST, port: env.PORT },
    vite: {
      // The port asked for or none: a dev server on another port than PORT would go unnoticed.
      // node_modules may be a link to another folder (a checkout sharing another's): the browser
      // loads the islands' dependencies from its real path, so it is allowed besides the project.
      server: { strictPort: true, fs: { allow: [root, realpathSync(join(root, 'node_modules'))] } },
      // The pre-bundled dependencies stay in this checkout, even when node_modules is shared.
      cacheDir: join(root, '.cache/vite'),
    },
  });
  console.log(`\nKomax web platform (dev, hot reloading) on http://localhost:${server.address.port}`);
  await printSiteAddresses(env, server.address.port, !!hubDown);
  if (localEditor) console.log(`  editor area: password ${LOCAL_EDITOR_PASSWORD} (a local demo value; set EDITOR_PASSWORD_HASH to choose one)`);

  const stop = async () => {
    await server.stop();
    await emulators?.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  const busy = /^Port \d+ is already in use/.test((err as Error).message ?? '');
  console.error(err instanceof EnvError ? err.message : busy ? `${(err as Error).message}: stop what uses it or set PORT` : err);
  process.exit(1);
});
