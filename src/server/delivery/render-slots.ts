/**
 * A bounded number of slots for expensive work (image renders, issue 28): at most `concurrency`
 * run at once, at most `maxQueue` wait for a slot, and none waits longer than `waitMs`. Whoever
 * waits longer, or finds the queue full, is told so at once instead of piling up behind the work.
 * @example const slot = await slots.acquire(); if (slot === 'busy') 503; try { … } finally { slot(); }
 */
export interface RenderSlotsOptions {
  concurrency: number;
  maxQueue: number;
  waitMs: number;
}

/** Gives the slot back (once; later calls do nothing). */
export type Release = () => void;

export class RenderSlots {
  readonly options: RenderSlotsOptions;
  private running = 0;
  private queue: { grant: (release: Release) => void }[] = [];

  constructor(options: RenderSlotsOptions) {
    this.options = { ...options, concurrency: Math.max(1, Math.floor(options.concurrency)) };
  }

  /** Slots in use now. */
  get active(): number {
    return this.running;
  }

  /** Requests waiting for a slot now. */
  get waiting(): number {
    return this.queue.length;
  }

  private release(): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.queue.shift();
      // The slot passes straight to the next in line: `running` stays the same.
      if (next) next.grant(this.release());
      else this.running--;
    };
  }

  /** A slot (its release function), or 'busy' when the queue is full or the wait passed `waitMs`. */
  acquire(): Promise<Release | 'busy'> {
    if (this.running < this.options.concurrency) {
      this.running++;
      return Promise.resolve(this.release());
    }
    if (this.queue.length >= this.options.maxQueue) return Promise.resolve('busy');
    return new Promise((resolve) => {
      const entry = {
        grant: (release: Release) => {
          clearTimeout(timer);
          resolve(release);
        },
      };
      const timer = setTimeout(() => {
        const i = this.queue.indexOf(entry);
        if (i !== -1) this.queue.splice(i, 1);
        resolve('busy');
      }, this.options.waitMs);
      this.queue.push(entry);
    });
  }
}
