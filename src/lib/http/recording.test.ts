import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answersUnchanged, recordingCalls } from './recording.ts';
import { askAgain, timedFetch } from './timeouts.ts';

let server: Server;
let origin: string;
/** What the fake service answers per path (its status and body). */
const answers = new Map<string, [number, string]>();
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const [status, text] = answers.get(req.url!) ?? [404, 'none'];
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(req.method === 'POST' ? `${text}:${body}:${req.headers['x-locales'] ?? ''}` : text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const ask = (call: Parameters<typeof askAgain>[0]) => askAgain(call);

describe('recording service calls', () => {
  it('records what a piece of work asked (method, headers, body) and hands its answers on unchanged', async () => {
    answers.set('/graphql', [200, '{"data":1}']);
    answers.set('/list', [200, '[1,2]']);
    const { result, recording } = await recordingCalls(async () => {
      const a = await timedFetch(`${origin}/graphql`, { method: 'POST', headers: { 'X-Locales': 'de,en' }, body: '{"query":"q"}' });
      const b = await timedFetch(`${origin}/list`);
      return [a.status, await a.text(), await b.json()];
    });
    expect(result).toEqual([200, '{"data":1}:{"query":"q"}:de,en', [1, 2]]);
    expect(recording.complete).toBe(true);
    expect(recording.calls.map((c) => [c.method, c.url.replace(origin, ''), c.headers, c.body, c.status])).toEqual([
      ['POST', '/graphql', [['x-locales', 'de,en']], '{"query":"q"}', 200],
      ['GET', '/list', [], '', 200],
    ]);
    // Outside a recording nothing is kept.
    await timedFetch(`${origin}/list`);
    expect(recording.calls).toHaveLength(2);
  });

  it('says unchanged only when every call gets the same status and bytes again', async () => {
    answers.set('/a', [200, 'one']);
    answers.set('/b', [200, 'two']);
    const { recording } = await recordingCalls(async () => {
      await (await timedFetch(`${origin}/a`)).text();
      await (await timedFetch(`${origin}/b`, { method: 'POST', body: 'x' })).text();
      await (await timedFetch(`${origin}/b`, { method: 'POST', body: 'x' })).text();
    });
    expect(await answersUnchanged(recording, ask)).toBe(true);
    answers.set('/b', [200, 'two!']);
    expect(await answersUnchanged(recording, ask)).toBe(false);
    answers.set('/b', [503, 'two']);
    expect(await answersUnchanged(recording, ask)).toBe(false);
    answers.set('/b', [200, 'two']);
    expect(await answersUnchanged(recording, ask)).toBe(true);
  });

  it('proves nothing when it is empty, incomplete (a body that is not text) or a call fails', async () => {
    const empty = await recordingCalls(async () => {});
    expect(await answersUnchanged(empty.recording, ask)).toBe(false);
    answers.set('/a', [200, 'one']);
    const binary = await recordingCalls(async () => { await (await timedFetch(`${origin}/a`, { method: 'POST', body: new Uint8Array([1, 2]) })).text(); });
    expect(binary.recording.complete).toBe(false);
    expect(await answersUnchanged(binary.recording, ask)).toBe(false);
    const ok = await recordingCalls(async () => { await (await timedFetch(`${origin}/a`)).text(); });
    expect(await answersUnchanged(ok.recording, async () => { throw new Error('connection refused'); })).toBe(false);
  });
});
