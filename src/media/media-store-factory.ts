import path from 'node:path';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { DatabaseMediaStore } from './database-media-store.js';
import { DiskMediaStore } from './disk-media-store.js';
import type { MediaStore } from './media-store.js';

/** The media store the settings name (MEDIA_STORE). */
export function mediaStoreFor(config: Config, database: Database, clock: () => number = Date.now): MediaStore {
  return config.media.store === 'database'
    ? new DatabaseMediaStore(database.db, clock)
    : new DiskMediaStore(path.join(config.dataDir, 'media'));
}
