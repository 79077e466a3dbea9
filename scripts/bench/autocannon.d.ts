// The part of autocannon's API the serving benchmarks use (the package ships no types).
declare module 'autocannon' {
  namespace autocannon {
    interface Histogram { average: number; p50: number; p99: number; total: number }
    interface Result { requests: Histogram; latency: Histogram; throughput: Histogram; errors: number; timeouts: number; non2xx: number }
    interface Request {
      method?: string;
      path: string;
      headers?: Record<string, string>;
      body?: string;
      /** Called before each send of this request; returns the request to send. */
      setupRequest?: <R extends { path: string; body?: string }>(req: R, context: Record<string, unknown>) => R;
      /** Called with each answer to this request, right before the instance's 'response' event. */
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string | string[]>) => void;
    }
    /** One connection. */
    interface Client { setRequests(requests: Request[]): void }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      /** Seconds before a request counts as timed out (default 10). */
      timeout?: number;
      headers?: Record<string, string>;
      requests?: Request[];
      /** Called once per connection, before its first request. */
      setupClient?: (client: Client) => void;
    }
    /** A running benchmark: its events, and the result once it is done. */
    interface Instance extends PromiseLike<Result> {
      on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): this;
      on(event: 'reqError', listener: (err: Error) => void): this;
    }
  }
  function autocannon(opts: autocannon.Options): autocannon.Instance;
  export default autocannon;
}
