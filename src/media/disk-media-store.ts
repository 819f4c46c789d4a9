import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { MEDIA_KEY, type MediaStore } from './media-store.js';

const TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif' };

/**
 * Media files under DATA_DIR/media. Each write goes to a temporary name, is flushed, and is renamed into
 * place, so a crash never leaves a half-written image behind a URL.
 */
export class DiskMediaStore implements MediaStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!MEDIA_KEY.test(key)) throw new Error(`Invalid media key ${key}`);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, bytes: Buffer, _contentType?: string): Promise<void> {
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await fs.open(temp, 'wx', 0o644);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, target);
  }

  async get(key: string) {
    if (!MEDIA_KEY.test(key)) return null;
    try {
      const bytes = await fs.readFile(this.pathOf(key));
      return { bytes, contentType: TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream' };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }
}
