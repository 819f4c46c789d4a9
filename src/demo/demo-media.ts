import { createHash } from 'node:crypto';
import type { Database } from '../db/database.js';
import type { MediaStore } from '../media/media-store.js';
import { solidPng } from '../media/png.js';

/**
 * Writes a real image for every media key the demo data refers to, in the size the data records, so
 * every image URL of the demo answers.
 */
export async function writeDemoMedia(database: Database, store: MediaStore): Promise<number> {
  const { db } = database;
  const wanted = new Map<string, [number, number]>();
  const add = (key: string | null, size: [number, number]) => {
    if (key?.startsWith('demo/')) wanted.set(key, size);
  };
  for (const row of await db.selectFrom('post_images').select(['media_key', 'width', 'height']).execute()) {
    add(row.media_key, [row.width ?? 640, row.height ?? 480]);
  }
  for (const row of await db.selectFrom('companies').select('logo_url').execute()) add(row.logo_url, [200, 200]);
  for (const row of await db.selectFrom('users').select('image_url').execute()) add(row.image_url, [200, 200]);
  for (const row of await db.selectFrom('job_images').select('media_key').execute()) add(row.media_key, [800, 600]);
  for (const row of await db.selectFrom('events').select('banner_key').execute()) add(row.banner_key, [1200, 400]);
  for (const [key, [width, height]] of wanted) {
    const digest = createHash('sha256').update(key).digest();
    await store.put(key, solidPng(width, height, [digest[0]!, digest[1]!, digest[2]!]), 'image/png');
  }
  return wanted.size;
}
