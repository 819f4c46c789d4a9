import { DiskMediaStore } from '../../src/media/disk-media-store.js';
import type { MediaStore } from '../../src/media/media-store.js';

/** A disk media store (folder set later, once the app's DATA_DIR is known) whose Nth write fails. */
export function failingMediaStore(failOnWrite: number): { store: MediaStore; useFolder(dir: string): void } {
  let disk: DiskMediaStore | null = null;
  let writes = 0;
  const of = () => {
    if (!disk) throw new Error('failingMediaStore: no folder yet');
    return disk;
  };
  return {
    useFolder: (dir) => {
      disk = new DiskMediaStore(dir);
    },
    store: {
      put: async (key, bytes, type) => {
        if (++writes === failOnWrite) throw new Error('disk full');
        await of().put(key, bytes, type);
      },
      get: (key) => of().get(key),
      delete: (key) => of().delete(key),
      keysStoredBefore: (before) => of().keysStoredBefore(before),
      removeUnfinished: (before) => of().removeUnfinished(before),
    },
  };
}
