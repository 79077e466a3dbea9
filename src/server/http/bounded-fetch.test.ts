import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { boundGlobalFetch } from './bounded-fetch.ts';

describe('boundGlobalFetch', () => {
  const before = getGlobalDispatcher();
  const sockets = new Set<Socket>();
  let hanging: Server | null = null;
  afterEach(async () => {
    setGlobalDispatcher(before);
    for (const s of sockets) s.destroy();
    await new Promise((ok) => (hanging ? hanging.close(ok) : ok(undefined)));
  });

  it('makes a plain fetch to a server that never answers give up instead of waiting', async () => {
    hanging = createServer((s) => { sockets.add(s); s.on('error', () => {}); });
    await new Promise<void>((ok) => hanging!.listen(0, '127.0.0.1', ok));
    const { port } = hanging.address() as AddressInfo;
    const agent = boundGlobalFetch({ connectTimeoutMs: 200, timeoutMs: 300 });
    try {
      const err = await fetch(`http://127.0.0.1:${port}/asset.png`).then(() => null, (e: unknown) => e as { cause?: { code?: string } });
      expect(err?.cause?.code).toBe('UND_ERR_HEADERS_TIMEOUT');
    } finally {
      await agent.close();
    }
  });
});
