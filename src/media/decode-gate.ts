import { ApiError } from '../shared/api-error.js';

interface Waiter {
  app: string;
  start(): void;
  timer: NodeJS.Timeout;
}

/**
 * Who may decode an image now. Decoding an upload is the most expensive thing a request can make the service
 * do (a 40-megapixel PNG is hundreds of milliseconds of a core and hundreds of megabytes), so it is admitted
 * here: at most `slots` decodes at once in the process (each on one libvips thread), and **one at a time per
 * app**, so that an app sending its uploads in parallel is served one after another and cannot buy more than
 * one core, however many connections it opens. Among apps waiting, the first to ask goes first. An upload
 * that has waited `maxWaitMs` for its turn is answered 503 with Retry-After (well before a socket's idle timeout).
 */
export class DecodeGate {
  private running = 0;
  private readonly decoding = new Set<string>();
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly slots: number,
    private readonly maxWaitMs = 10_000,
  ) {}

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
    return new Promise((start, refuse) => {
      const waiter: Waiter = {
        app,
        start,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          refuse(
            new ApiError(
              'C9998',
              `This app's images waited more than ${this.maxWaitMs / 1000} s to be processed (each app's are processed one at a time); retry after the time in Retry-After, or send fewer at once`,
              null,
              { 'Retry-After': '1' },
            ),
          );
        }, this.maxWaitMs),
      };
      this.waiting.push(waiter);
    });
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
      clearTimeout(waiter.timer);
      this.take(waiter.app);
      waiter.start();
    }
  }
}
