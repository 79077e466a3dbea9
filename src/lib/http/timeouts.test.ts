import { afterEach, describe, expect, it } from 'vitest';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { describeFetchFailure, timedFetch, timedStreamFetch } from './timeouts.ts';
import { ContentError, fetchFileBody } from '../content/index.ts';
import { isServiceUnavailable } from '../graphql/query.ts';

const servers: (TcpServer | HttpServer)[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((ok) => s.close(ok))));
});

async function listen(server: TcpServer | HttpServer): Promise<string> {
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/file.pdf`;
}
const hanging = () => listen(createTcpServer((socket) => { sockets.push(socket); socket.on('data', () => {}); }));
const timeouts = { connectTimeoutMs: 200, timeoutMs: 300 };

describe('timedFetch', () => {
  it('aborts a call that gets no answer within the total timeout', async () => {
    const url = await hanging();
    const err = await timedFetch(url, {}, timeouts).catch((e: unknown) => e);
    expect(describeFetchFailure(err, { connectTimeoutMs: 200, timeoutMs: 300 })).toEqual({ kind: 'timeout', message: 'no answer within 300 ms' });
  });
});

describe('file downloads', () => {
  it('give up on an asset store that never answers, as an unavailable content hub', async () => {
    const url = await hanging();
    const err = await fetchFileBody({ slug: 'x', url, fileName: 'x.pdf', size: 1, locale: 'en', access: 'public' }, timeouts).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContentError);
    expect((err as ContentError).message).toBe('Content hub unreachable: no answer within 300 ms');
    expect(isServiceUnavailable(err)).toBe(true);
  });

  it('stream a body that keeps flowing for longer than the total timeout', async () => {
    const url = await listen(createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      let n = 0;
      const tick = setInterval(() => {
        res.write(`chunk${n}\n`);
        if (++n === 6) { clearInterval(tick); res.end(); }
      }, 100);
    }));
    const res = await timedStreamFetch(url, timeouts);
    expect((await res.text()).split('\n').filter(Boolean)).toHaveLength(6);
  });
});
