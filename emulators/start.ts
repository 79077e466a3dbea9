import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startContentHub } from './content-hub/server.ts';
import { startCatalogue } from './catalogue/server.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const EMULATOR_PORTS: { contentHub: number; catalogue: number } = { contentHub: 4100, catalogue: 4101 };

export interface RunningEmulators {
  contentEndpoint: string;
  catalogueEndpoint: string;
  close(): Promise<void>;
}

/** Starts every emulator on loopback over the demo dataset. */
export async function startEmulators(opts: { ports?: Partial<typeof EMULATOR_PORTS>; watch?: boolean; quiet?: boolean } = {}): Promise<RunningEmulators> {
  const ports = { ...EMULATOR_PORTS, ...opts.ports };
  const [hub, catalogue] = await Promise.all([
    startContentHub({ port: ports.contentHub, dataDir: join(here, 'data/content'), watch: opts.watch, quiet: opts.quiet }),
    startCatalogue({ port: ports.catalogue, dataDir: join(here, 'data/catalogue'), watch: opts.watch, quiet: opts.quiet }),
  ]);
  const stop = (server: import('node:http').Server) => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return {
    contentEndpoint: hub.url,
    catalogueEndpoint: catalogue.url,
    close: async () => { await Promise.all([stop(hub.server), stop(catalogue.server)]); },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const running = await startEmulators({ watch: true });
  console.log(`content hub  ${running.contentEndpoint}`);
  console.log(`catalogue    ${running.catalogueEndpoint}`);
  const stop = async () => { await running.close(); process.exit(0); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
