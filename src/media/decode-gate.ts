import { ApiError } from '../shared/api-error.js';

interface Waiter { app: string; start(): void }

/**
 * Who may decode an image now. Decoding an upload is the most expensive thing a request can make the service
 * do (a 40-megapixel PNG is hundreds of milliseconds of a core and hundreds of megabytes), so it is admitted
 * here: at most `slots` decodes at once in the process (each on one libvips thread), and **one at a time per
 * app**, so that an app sending its uploads in parallel is served one after another and cannot buy more than
 * one core, however many connections it opens. Among apps waiting, the first to ask goes first. An app with
 * `maxWaiting` uploads already waiting is answered 503 with Retry-After instead of being queued further.
 */
export class DecodeGate {
  private running = 0;
  private readonly decoding = new Set<string>();
  private readonly waiting: Waiter[] = [];

  constructor(private readonly slots: number, private readonly maxWaiting = 8) {}

  async run<T>(app: string, decode: () => Promise<T>): Promise<T> {
    await this.admit(app);
    try {
      return await decode();
    } finally {
      this.running--;
      this.decoding.delete(app);
      this.next();
    }
  }

  private admit(app: string): Promise<void> {
    if (this.running < this.slots && !this.decoding.has(app)) {
      this.take(app);
      return Promise.resolve();
    }
    if (this.waiting.filter((w) => w.app === app).length >= this.maxWaiting) {
      throw new ApiError('C9998', `More than ${this.maxWaiting} of this app's uploads are waiting for their images to be processed; retry after the time in Retry-After`, null, { 'Retry-After': '1' });
    }
    return new Promise((start) => this.waiting.push({ app, start }));
  }

  private take(app: string): void {
    this.running++;
    this.decoding.add(app);
  }

  /** Starts the oldest waiters whose app has no decode running, while slots are free. */
  private next(): void {
    for (let i = 0; i < this.waiting.length && this.running < this.slots; i++) {
      const waiter = this.waiting[i]!;
      if (this.decoding.has(waiter.app)) continue;
      this.waiting.splice(i--, 1);
      this.take(waiter.app);
      waiter.start();
    }
  }
}
