import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MULTIPART_TYPE } from './body.ts';
import { endpoint } from './endpoint.ts';
import { MULTIPART_UPLOADS, UploadSlots, UploadTooSlowError, watchUploadRate, type UploadRule } from './upload-guard.ts';

/** A body the test feeds by hand: `send(n)` delivers n bytes, `end()` finishes it. */
function manualBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    start(c) { controller = c; },
    cancel() { cancelled = true; },
  });
  return { stream, send: (n: number) => controller.enqueue(new Uint8Array(n)), end: () => controller.close(), cancelled: () => cancelled };
}

/** Reads a stream to its end in the background: bytes read and how it ended. */
function consume(stream: ReadableStream<Uint8Array>) {
  const state = { bytes: 0, done: false, error: null as unknown };
  const reader = stream.getReader();
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        state.bytes += value.byteLength;
      }
      state.done = true;
    } catch (err) {
      state.error = err;
    }
  })();
  return state;
}

const RULE = { minBytesPerSecond: 1000, windowMs: 10_000 };

describe('watchUploadRate', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('passes an upload at the minimum rate or above through untouched', async () => {
    const src = manualBody();
    const onTooSlow = vi.fn();
    const state = consume(watchUploadRate(src.stream, RULE, onTooSlow).body);
    for (let s = 0; s < 30; s++) {
      await vi.advanceTimersByTimeAsync(1000);
      src.send(1200);
    }
    src.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(state).toEqual({ bytes: 36_000, done: true, error: null });
    expect(onTooSlow).not.toHaveBeenCalled();
  });

  it('ends an upload that trickles in below the rate over a window, without cancelling the client\'s request', async () => {
    const src = manualBody();
    const onTooSlow = vi.fn();
    const state = consume(watchUploadRate(src.stream, RULE, onTooSlow).body);
    // 100 bytes a second: never idle, but a tenth of the minimum.
    for (let s = 0; s < 9; s++) {
      await vi.advanceTimersByTimeAsync(1000);
      src.send(100);
    }
    expect(onTooSlow).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(onTooSlow).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(state.error).toBeInstanceOf(UploadTooSlowError);
    expect(src.cancelled()).toBe(false);
  });

  it('does not count the time the reader is not reading (the upstream pushing back)', async () => {
    const src = manualBody();
    const onTooSlow = vi.fn();
    const reader = watchUploadRate(src.stream, RULE, onTooSlow).body.getReader();
    src.send(10_000);
    expect((await reader.read()).value?.byteLength).toBe(10_000);
    // The reader pauses for a minute; the client's bytes wait in the buffer.
    src.send(10_000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect((await reader.read()).value?.byteLength).toBe(10_000);
    expect(onTooSlow).not.toHaveBeenCalled();
  });

  it('stops measuring when told to', async () => {
    const src = manualBody();
    const onTooSlow = vi.fn();
    const watched = watchUploadRate(src.stream, RULE, onTooSlow);
    consume(watched.body);
    await vi.advanceTimersByTimeAsync(5000);
    watched.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(onTooSlow).not.toHaveBeenCalled();
  });
});

describe('UploadSlots', () => {
  it('gives a client at most `max` slots, each released once', () => {
    const slots = new UploadSlots();
    const a = slots.take('192.0.2.1', 2)!;
    const b = slots.take('192.0.2.1', 2)!;
    expect(slots.take('192.0.2.1', 2)).toBeNull();
    expect(slots.take('192.0.2.2', 2)).not.toBeNull();
    a();
    a();
    expect(slots.count('192.0.2.1')).toBe(1);
    expect(slots.take('192.0.2.1', 2)).not.toBeNull();
    b();
  });
});

describe('endpoint with an upload rule', () => {
  const upload: UploadRule = { ...MULTIPART_UPLOADS, minBytesPerSecond: 1000, windowMs: 10_000, maxPerClient: 2 };
  const limits = { body: { maxBytes: 1e9, types: [MULTIPART_TYPE, 'application/json'] }, streams: true as const, upload };
  const uploadRequest = (body: ReadableStream<Uint8Array> | string) => new Request('http://localhost/api/x', {
    method: 'POST', body, duplex: 'half', headers: { 'content-type': 'multipart/form-data; boundary=b', ...(typeof body === 'string' ? { 'content-length': String(body.length) } : { 'transfer-encoding': 'chunked' }) },
  } as RequestInit);
  const ctx = (request: Request, clientAddress = '192.0.2.1') => ({ request, clientAddress });

  it('answers 429 to a client\'s upload past the cap while the others run; JSON requests and other clients are not counted', async () => {
    const finish: (() => void)[] = [];
    const handler = endpoint(limits, () => new Promise<Response>((ok) => finish.push(() => ok(new Response('ok')))));
    const running = [handler(ctx(uploadRequest('a'))), handler(ctx(uploadRequest('b')))];
    const third = await handler(ctx(uploadRequest('c')));
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('10');
    expect(await third.json()).toEqual({ error: 'too-many-uploads', message: 'Too many uploads at once: at most 2 per client. Wait until one has finished, then try again.' });
    const json = handler(ctx(new Request('http://localhost/api/x', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', 'content-length': '2' } })));
    const other = handler(ctx(uploadRequest('d'), '192.0.2.2'));
    await Promise.resolve();
    expect(finish).toHaveLength(4);
    finish.forEach((f) => f());
    expect((await Promise.all([...running, json, other])).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    // Finished uploads free their slots.
    const again = handler(ctx(uploadRequest('e')));
    await Promise.resolve();
    finish[4]!();
    expect((await again).status).toBe(200);
  });

  describe('too slow', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it('answers 408 (and closes the connection) when the body comes in below the minimum rate, whatever the handler made of it', async () => {
      const src = manualBody();
      // Like the tickets proxy: reads the body on, and answers 503 when reading it failed.
      const handler = endpoint(limits, async ({ request }) => {
        try {
          await new Response(request.body).arrayBuffer();
          return new Response('ok');
        } catch {
          return new Response('upstream failed', { status: 503 });
        }
      });
      const answer = handler(ctx(uploadRequest(src.stream)));
      for (let s = 0; s < 10; s++) {
        await vi.advanceTimersByTimeAsync(1000);
        src.send(50);
      }
      const res = await answer;
      expect(res.status).toBe(408);
      expect(res.headers.get('connection')).toBe('close');
      expect(await res.json()).toEqual({ error: 'upload-too-slow', message: 'The upload was too slow: it must send at least 0.9765625 KiB per second (over 10 s). Try again on a better connection.' });
    });
  });
});
