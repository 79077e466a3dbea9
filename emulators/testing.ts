// Test fixture: the content hub and catalogue emulators over the demo data, on free loopback ports.
import type { Server } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCatalogue } from './catalogue/server.ts';
import { startContentHub } from './content-hub/server.ts';

const data = join(dirname(fileURLToPath(import.meta.url)), 'data');

export interface DemoServices {
  contentEndpoint: string;
  catalogueEndpoint: string;
  close(): Promise<void>;
}

const closeServer = (server: Server) => new Promise<void>((resolve) => {
  server.closeAllConnections();
  server.close(() => resolve());
});

/** Starts both emulators (quiet, port 0) for a unit test; `close()` stops them. */
export async function startDemoServices(): Promise<DemoServices> {
  const [hub, catalogue] = await Promise.all([
    startContentHub({ port: 0, dataDir: join(data, 'content'), quiet: true }),
    startCatalogue({ port: 0, dataDir: join(data, 'catalogue'), quiet: true }),
  ]);
  return {
    contentEndpoint: hub.url,
    catalogueEndpoint: catalogue.url,
    close: async () => { await Promise.all([closeServer(hub.server), closeServer(catalogue.server)]); },
  };
}
