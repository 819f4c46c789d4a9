import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { MediaStore } from './media-store.js';

/** An upload is stored before the rows that refer to it are written; this is far longer than any create takes. */
export const MEDIA_SWEEP_GRACE_MS = 3_600_000;

/** The folders uploads are stored in (ImageUploads.storeAll); media seeded by operators (demo/) is left alone. */
const UPLOAD_FOLDERS = ['posts/', 'jobs/', 'events/'];

export interface SweepResult {
  orphans: number;
  unfinished: number;
}

/**
 * Removes uploaded media that no row refers to: what a crash (or a failed cleanup) left between storing an upload and
 * writing its rows, or after deleting rows and before removing their files; and the temporary files of writes
 * a crash interrupted. Only objects older than MEDIA_SWEEP_GRACE_MS are considered, so a create in progress
 * never loses its images. Runs when the service starts and then on a timer.
 */
export class MediaSweep {
  private timer: NodeJS.Timeout | null = null;
  /** The sweep started with the service, for whoever needs to know it has finished (tests, the CLI). */
  firstRun: Promise<SweepResult> = Promise.resolve({ orphans: 0, unfinished: 0 });

  constructor(
    private readonly db: Kysely<DB>,
    private readonly store: MediaStore,
    private readonly clock: () => number,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(intervalMs: number): void {
    this.firstRun = this.runLogged();
    this.timer = setInterval(() => {
      void this.runLogged();
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async run(): Promise<SweepResult> {
    const before = this.clock() - MEDIA_SWEEP_GRACE_MS;
    let orphans = 0;
    for await (const stored of this.store.keysStoredBefore(before)) {
      const keys = stored.filter((key) => UPLOAD_FOLDERS.some((folder) => key.startsWith(folder)));
      if (keys.length === 0) continue;
      const used = await this.referenced(keys);
      for (const key of keys) {
        if (used.has(key)) continue;
        await this.store.delete(key);
        orphans++;
      }
    }
    return { orphans, unfinished: await this.store.removeUnfinished(before) };
  }

  private async runLogged(): Promise<SweepResult> {
    try {
      const result = await this.run();
      if (result.orphans + result.unfinished > 0) this.log.info(result, 'removed media nothing refers to');
      return result;
    } catch (err) {
      this.log.warn({ err }, 'media sweep failed; it runs again later');
      return { orphans: 0, unfinished: 0 };
    }
  }

  /** Which of `keys` a post, job or event (banner or attachment) refers to (each column indexed). */
  private async referenced(keys: string[]): Promise<Set<string>> {
    const [posts, jobs, events, attachments] = await Promise.all([
      this.db.selectFrom('post_images').select('media_key as key').where('media_key', 'in', keys).execute(),
      this.db.selectFrom('job_images').select('media_key as key').where('media_key', 'in', keys).execute(),
      this.db.selectFrom('events').select('banner_key as key').where('banner_key', 'in', keys).execute(),
      this.db.selectFrom('event_attachments').select('media_key as key').where('media_key', 'in', keys).execute(),
    ]);
    return new Set(
      [...posts, ...jobs, ...events, ...attachments].map((r) => r.key).filter((k): k is string => k !== null),
    );
  }
}
