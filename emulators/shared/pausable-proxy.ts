import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP relay in front of an emulator that can make it look hung and then resume it, as a real
 * service does when it stalls (a long GC, a stuck database, a frozen VM): while paused, it accepts
 * connections and holds every byte the client sends; on resume, the held bytes reach the service,
 * which then does the work and answers (to a client that may have given up long before). For the
 * tests of "the first attempt timed out, the retry with the same key gets the first result".
 * @example const relay = await startPausableProxy(4100); relay.pause(); … relay.resume(); await relay.close();
 */
export interface PausableProxy {
  /** The relay's port on 127.0.0.1. */
  port: number;
  pause(): void;
  /** Lets everything held through (in order) and relays as usual again. */
  resume(): void;
  readonly paused: boolean;
  /** Connections seen so far (a test can wait until the request it expects arrived). */
  readonly connections: number;
  /** Bytes held while paused (waits until the request is in before resuming). */
  readonly heldBytes: number;
  close(): Promise<void>;
}

export async function startPausableProxy(targetPort: number, opts: { port?: number; host?: string } = {}): Promise<PausableProxy> {
  const host = opts.host ?? '127.0.0.1';
  let paused = false;
  let connections = 0;
  let heldBytes = 0;
  const flushes = new Set<() => void>();
  const sockets = new Set<Socket>();
  const track = (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); };
  const server = createServer((client) => {
    connections++;
    track(client);
    const held: Buffer[] = [];
    let upstream: Socket | null = null;
    let clientGone = false;
    // Sends what is held once not paused. A client that gave up meanwhile still has its request
    // delivered (the service then works on it and answers nobody), as with a service that was only slow.
    const flush = () => {
      if (paused || !held.length) return;
      if (!upstream) {
        const up = connect(targetPort, host);
        upstream = up;
        track(up);
        up.on('data', (chunk: Buffer) => { if (!clientGone) client.write(chunk); });
        up.on('end', () => { if (!clientGone) client.end(); });
        up.on('error', () => { if (!clientGone) client.destroy(); });
      }
      for (const chunk of held.splice(0)) upstream.write(chunk);
    };
    flushes.add(flush);
    client.on('data', (chunk: Buffer) => {
      held.push(chunk);
      if (paused) heldBytes += chunk.length;
      flush();
    });
    client.on('error', () => {});
    client.on('close', () => {
      clientGone = true;
      if (!held.length) flushes.delete(flush);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    pause() { paused = true; },
    resume() {
      paused = false;
      heldBytes = 0;
      for (const flush of [...flushes]) flush();
    },
    get paused() { return paused; },
    get connections() { return connections; },
    get heldBytes() { return heldBytes; },
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
