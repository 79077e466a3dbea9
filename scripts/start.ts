// npm start: emulators on loopback, the app built when its sources changed, an incremental
// prerender, then the production server on http://localhost:4321.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIfNeeded, distDir } from './build-if-needed.ts';
import { LOCAL_EDITOR_PASSWORD, LOCAL_REVALIDATE_SECRET, printSiteAddresses, startLocalEmulators, useLocalEditorPassword } from './local.ts';
import { EnvError, parseServerEnv, type ServerEnv } from '../src/server/boot/env.ts';
import type { RunningEmulators } from '../emulators/start.ts';
import { cannotStartMessage, hasPublishedRelease, probeContentHub, servingPreviousMessage } from '../src/server/boot/startup.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A reason not to start that needs no stack trace. */
export class StartError extends Error {}

/** What `npm start` and `npm run start:edge` both do before serving. */
export interface LocalPreparation {
  env: ServerEnv;
  dist: string;
  emulators: RunningEmulators | null;
  /** Why the content hub could not be reached (the previous release is served), or null. */
  hubDown: Error | null;
  localEditor: boolean;
}

/**
 * Emulators on loopback unless configured, the app built when its sources changed, an incremental
 * prerender. Throws a StartError when there is nothing to serve.
 */
export async function prepareLocal(): Promise<LocalPreparation> {
  // Readable log lines for a developer; the production server (npm run serve) writes JSON lines.
  process.env.LOG_FORMAT ??= 'pretty';
  const emulators = await startLocalEmulators();
  process.env.REVALIDATE_SECRET ??= LOCAL_REVALIDATE_SECRET;
  const localEditor = useLocalEditorPassword();
  const env = parseServerEnv(process.env);
  const dist = distDir(root);

  // A content hub that is down does not stop the start when a release was published before: it
  // is served as it is (no build either: a build would replace dist/ and the release with it)
  // and the revalidation is retried in the background. With nothing published, it does.
  let hubDown = await probeContentHub(env);
  if (hubDown && !hasPublishedRelease(dist)) throw new StartError(cannotStartMessage(env, hubDown, dist));
  if (!hubDown) {
    buildIfNeeded(root, { force: process.argv.includes('--build') });
    const { runPrerenderCli } = await import('./prerender.ts');
    try {
      await runPrerenderCli({ all: process.argv.includes('--all'), rethrow: true });
    } catch (err) {
      if (!hasPublishedRelease(dist)) throw new StartError(cannotStartMessage(env, err as Error, dist));
      hubDown = err as Error;
    }
  }
  return { env, dist, emulators, hubDown: hubDown ?? null, localEditor };
}

/** The lines after the site addresses: the local editor password and how to revalidate. */
export function printLocalHints(port: number, localEditor: boolean): void {
  if (localEditor) console.log(`  editor area: password ${LOCAL_EDITOR_PASSWORD} (a local demo value; set EDITOR_PASSWORD_HASH to choose one)`);
  if (process.env.REVALIDATE_SECRET === LOCAL_REVALIDATE_SECRET) console.log(`  revalidate: curl -X POST -H 'x-revalidate-secret: ${LOCAL_REVALIDATE_SECRET}' http://localhost:${port}/api/revalidate`);
}

async function main() {
  const { env, emulators, hubDown, localEditor } = await prepareLocal();
  const { startServer } = await import('../src/server/main.ts');
  const server = await startServer();
  const port = env.PORT;
  console.log(`\nKomax web platform on ${server.url}`);
  if (hubDown) {
    console.warn(servingPreviousMessage(env, hubDown));
    server.retryRevalidation();
  }
  await printSiteAddresses(env, port, !!hubDown);
  printLocalHints(port, localEditor);

  const stop = async () => {
    await server.close();
    await emulators?.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(err instanceof EnvError || err instanceof StartError ? err.message : err);
    process.exit(1);
  });
}
