import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../shared/api-error.js';
import type { UploadedFile } from '../shared/multipart-body.js';
import { inspectImage } from './image-inspection.js';
import type { MediaStore } from './media-store.js';

export interface StoredImage {
  mediaKey: string;
  contentType: string;
  byteSize: number;
  width: number | null;
  height: number | null;
}

/**
 * Checks uploads and stores them. Every file is inspected before anything is stored (415 C0007 for a
 * file that is not JPEG, PNG, WebP or GIF by its bytes); if storing fails part-way, what was stored is
 * removed again. Callers store first and write rows after, calling `discard` if the rows fail.
 */
export class ImageUploads {
  constructor(private readonly store: MediaStore, private readonly log: FastifyBaseLogger) {}

  async storeAll(folder: string, files: UploadedFile[], field: string): Promise<StoredImage[]> {
    const inspected = files.map((file, i) => {
      const image = inspectImage(file.bytes);
      if (!image) {
        throw new ApiError('C0007', `Part "${field}" #${i + 1} (${JSON.stringify(file.filename)}) is not a JPEG, PNG, WebP or GIF image`, field);
      }
      return { file, image };
    });
    const stored: StoredImage[] = [];
    try {
      for (const { file, image } of inspected) {
        const mediaKey = `${folder}/${randomBytes(16).toString('base64url')}.${image.extension}`;
        await this.store.put(mediaKey, file.bytes, image.contentType);
        stored.push({ mediaKey, contentType: image.contentType, byteSize: file.bytes.length, width: image.width, height: image.height });
      }
      return stored;
    } catch (err) {
      await this.discard(stored.map((s) => s.mediaKey));
      throw err;
    }
  }

  /** Removes stored media; failures are logged, not thrown (the request already failed or succeeded). */
  async discard(keys: string[]): Promise<void> {
    for (const key of keys) {
      try {
        await this.store.delete(key);
      } catch (err) {
        this.log.error({ err, key }, 'could not remove media');
      }
    }
  }
}
