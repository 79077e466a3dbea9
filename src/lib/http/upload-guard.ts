/**
 * What keeps uploads from tying the server up (issue 28): a client may run only a few uploads at
 * once (429 past that), and an upload must keep a minimum transfer rate (408 below it). A body
 * trickling in a few bytes at a time would otherwise hold a request, a stream and an upstream
 * connection for hours, well inside the size limit and never idle long enough for the idle
 * timeout. Declared per endpoint (`EndpointLimits.upload`) and applied by the `endpoint` wrapper.
 */
import { errorBody, MULTIPART_TYPE } from './body.ts';

/**
 * The slowest upload taken, in bytes per second of waiting for the client: 2 KiB/s (16 kbit/s),
 * below the upload rate of the slowest mobile links still in use (GPRS: 20–40 kbit/s). Time the
 * server itself is not reading (the upstream service pushing back) does not count.
 */
export const UPLOAD_MIN_BYTES_PER_SECOND = 2048;
/**
 * The rate is measured over windows of this much waiting for the client: an upload that sends
 * fewer than UPLOAD_MIN_BYTES_PER_SECOND × 60 (120 KiB) in one is ended with 408. Longer than the
 * idle timeout of an upload (30 s, lib/ticketing), which answers a body that stopped altogether.
 */
export const UPLOAD_RATE_WINDOW_MS = 60_000;
/** Uploads one client (address) may run at once: the ticket screens send one file at a time; a few tabs or colleagues behind one address fit. */
export const MAX_CONCURRENT_UPLOADS_PER_CLIENT = 4;
/** Retry-After of the 429 for one upload too many (a file of a few MB takes about this long). */
export const UPLOAD_RETRY_AFTER_SECONDS = 10;

/** An endpoint's upload rule: the media types that are uploads, the rate and the cap. */
export interface UploadRule {
  types: readonly string[];
  minBytesPerSecond: number;
  windowMs: number;
  maxPerClient: number;
}

export const MULTIPART_UPLOADS: UploadRule = {
  types: [MULTIPART_TYPE],
  minBytesPerSecond: UPLOAD_MIN_BYTES_PER_SECOND,
  windowMs: UPLOAD_RATE_WINDOW_MS,
  maxPerClient: MAX_CONCURRENT_UPLOADS_PER_CLIENT,
};

export class UploadTooSlowError extends Error {
  override name = 'UploadTooSlowError';
}

/**
 * The uploads running per client, in memory (one process; behind several instances each counts
 * its own). `take` gives a release function, or null when the client is at `max`.
 */
export class UploadSlots {
  private running = new Map<string, number>();

  take(key: string, max: number): (() => void) | null {
    const n = this.running.get(key) ?? 0;
    if (n >= max) return null;
    this.running.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(key) ?? 1) - 1;
      if (left > 0) this.running.set(key, left);
      else this.running.delete(key);
    };
  }

  /** Uploads running for `key` (for tests). */
  count(key: string): number {
    return this.running.get(key) ?? 0;
  }
}

/**
 * The body of an upload, passed through as it is read, measuring the client's rate: only time
 * spent waiting for the client's next bytes counts (a reader that pauses is not the client's
 * fault). Each time a window of `windowMs` of waiting is full, fewer than `minBytesPerSecond` ×
 * the window's seconds in it ends the upload: `onTooSlow` is called and the stream errors with an
 * UploadTooSlowError. The client's request is not cancelled then (that would reset the
 * connection before the 408 is sent). `stop()` ends the measuring (the handler answered).
 */
export function watchUploadRate(source: ReadableStream<Uint8Array>, rule: Pick<UploadRule, 'minBytesPerSecond' | 'windowMs'>, onTooSlow: () => void): { body: ReadableStream<Uint8Array>; stop(): void } {
  const reader = source.getReader();
  const minBytes = (rule.minBytesPerSecond * rule.windowMs) / 1000;
  let windowBytes = 0;
  /** Waiting for the client in the current window, not counting the read in progress. */
  let waited = 0;
  /** When the read in progress (or its part in the current window) started, or null. */
  let readSince: number | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let tooSlow = false;
  let fail: (err: Error) => void = () => {};

  /** A window is full: too few bytes end the upload, else the next window starts. */
  const windowFull = (): boolean => {
    if (windowBytes < minBytes) {
      tooSlow = true;
      clearTimeout(timer);
      onTooSlow();
      fail(new UploadTooSlowError(`fewer than ${rule.minBytesPerSecond} bytes per second over ${rule.windowMs / 1000} s`));
      return false;
    }
    windowBytes = 0;
    waited = 0;
    return true;
  };
  const arm = () => {
    clearTimeout(timer);
    // Fires when the read in progress fills the window with waiting.
    timer = setTimeout(() => {
      if (stopped || tooSlow) return;
      if (windowFull()) {
        readSince = Date.now();
        arm();
      }
    }, rule.windowMs - waited);
  };

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      fail = (err) => controller.error(err);
    },
    async pull(controller) {
      if (stopped) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
        return;
      }
      readSince = Date.now();
      arm();
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        clearTimeout(timer);
        if (!tooSlow) controller.error(err);
        return;
      }
      clearTimeout(timer);
      if (tooSlow) return;
      waited += Date.now() - (readSince ?? Date.now());
      readSince = null;
      if (chunk.done) {
        controller.close();
        return;
      }
      windowBytes += chunk.value.byteLength;
      if (waited >= rule.windowMs && !windowFull()) return;
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      clearTimeout(timer);
      // Too slow: the client's request is left alone (the 408 goes out, then the connection closes).
      if (!tooSlow) return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
  return { body, stop: () => { stopped = true; clearTimeout(timer); } };
}

/** 429: the client already runs as many uploads as it may. */
export function tooManyUploads(rule: UploadRule, extra: Record<string, unknown> = {}): Response {
  return new Response(errorBody('too-many-uploads', `Too many uploads at once: at most ${rule.maxPerClient} per client. Wait until one has finished, then try again.`, extra), {
    status: 429,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': String(UPLOAD_RETRY_AFTER_SECONDS) },
  });
}

/** 408: the upload came in below the minimum rate; the connection is closed after the answer. */
export function uploadTooSlow(rule: UploadRule, extra: Record<string, unknown> = {}): Response {
  const kib = rule.minBytesPerSecond / 1024;
  return new Response(errorBody('upload-too-slow', `The upload was too slow: it must send at least ${kib} KiB per second (over ${rule.windowMs / 1000} s). Try again on a better connection.`, extra), {
    status: 408,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'close' },
  });
}
