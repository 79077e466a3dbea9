import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startContentHub } from './content-hub/server.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const EMULATOR_PORTS: { contentHub: number } = { contentHub: 4100 };

export interface RunningEmulators {
  contentEndpoint: string;
  close(): Promise<void>;
}

/** Starts every emulator on loopback over the demo dataset. */
export async function startEmulators(opts: { ports?: Partial<typeof EMULATOR_PORTS>; watch?: boolean; quiet?: boolean } = {}): Promise<RunningEmulators> {
  const ports = { ...EMULATOR_PORTS, ...opts.ports };
  const hub = await startContentHub({ port: ports.contentHub, dataDir: join(here, 'data/content'), watch: opts.watch, quiet: opts.quiet });
  return {
    contentEndpoint: hub.url,
    close: () => new Promise((resolve) => { hub.server.closeAllConnections(); hub.server.close(() => resolve()); }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const running = await startEmulators({ watch: true });
  console.log(`content hub  ${running.contentEndpoint}`);
  const stop = async () => { await running.close(); process.exit(0); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
