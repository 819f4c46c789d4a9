import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  type Dirent,
} from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { MEDIA_KEY, type MediaStore } from './media-store.js';

const PAGE = 500;

const TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif' };

/**
 * Media files under DATA_DIR/media. Each write goes to a temporary name, is flushed, and is renamed into
 * place, and the rename is flushed with its folder, so a crash never leaves a half-written image behind a URL
 * nor loses one whose post was answered.
 */
export class DiskMediaStore implements MediaStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!MEDIA_KEY.test(key)) throw new Error(`Invalid media key ${key}`);
    return path.join(this.root, ...key.split('/'));
  }

  /**
   * Written synchronously, on purpose. Each asynchronous file call (folder, open, write, flush, close, rename)
   * is a turn of the event loop, and on a loop that reads keep busy every turn waits for the reads already
   * queued (tens of milliseconds each under load): an upload's post took ~10 such turns. Done here in one go,
   * it costs the loop the two flushes (about a millisecond on this kind of disk), as a SQLite commit's own
   * flush already does, and the write is answered a loop turn after its image is decoded.
   */
  async put(key: string, bytes: Buffer, _contentType?: string): Promise<void> {
    const target = this.pathOf(key);
    const folder = path.dirname(target);
    mkdirSync(folder, { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    const file = openSync(temp, 'wx', 0o644);
    try {
      writeFileSync(file, bytes);
      fsyncSync(file);
    } catch (err) {
      closeSync(file);
      rmSync(temp, { force: true });
      throw err;
    }
    closeSync(file);
    renameSync(temp, target);
    flushFolder(folder);
  }

  /**
   * Read synchronously, for the reason `put` writes so: an asynchronous read (open, size, read, close) waited four
   * turns of a busy event loop. From the page cache a read holds the loop a small fraction of a millisecond for a
   * typical image, a few for one at the upload limit; and each is fetched about once per client (it is served as immutable for a year).
   */
  async get(key: string) {
    if (!MEDIA_KEY.test(key)) return null;
    try {
      const bytes = readFileSync(this.pathOf(key));
      return { bytes, contentType: TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream' };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async *keysStoredBefore(before: number): AsyncIterable<string[]> {
    let page: string[] = [];
    for await (const file of this.files()) {
      if (file.name.endsWith('.tmp') || file.mtimeMs >= before) continue;
      const key = path.relative(this.root, file.path).split(path.sep).join('/');
      if (!MEDIA_KEY.test(key)) continue;
      page.push(key);
      if (page.length === PAGE) {
        yield page;
        page = [];
      }
    }
    if (page.length > 0) yield page;
  }

  /** Temporary files of writes a crash interrupted (a finished write renames its file into place). */
  async removeUnfinished(before: number): Promise<number> {
    let removed = 0;
    for await (const file of this.files()) {
      if (!file.name.endsWith('.tmp') || file.mtimeMs >= before) continue;
      await fs.rm(file.path, { force: true });
      removed++;
    }
    return removed;
  }

  /** Every file under the root, with when it was last written. */
  private async *files(): AsyncIterable<{ path: string; name: string; mtimeMs: number }> {
    let entries: Dirent[];
    const folders = [this.root];
    while (folders.length > 0) {
      const folder = folders.pop()!;
      try {
        entries = await fs.readdir(folder, { withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
      for (const entry of entries) {
        const full = path.join(folder, entry.name);
        if (entry.isDirectory()) folders.push(full);
        else if (entry.isFile()) {
          const stat = await fs.stat(full).catch(() => null);
          if (stat) yield { path: full, name: entry.name, mtimeMs: stat.mtimeMs };
        }
      }
    }
  }
}

/** Makes the names in `folder` (a rename into it) durable. */
function flushFolder(folder: string): void {
  const handle = openSync(folder, 'r');
  try {
    fsyncSync(handle);
  } finally {
    closeSync(handle);
  }
}
