import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../shared/api-error.js';
import type { UploadedFile } from '../shared/multipart-body.js';
import type { DecodeGate } from './decode-gate.js';
import { ImageProcessFailed, type ImageProcess } from './image-process.js';
import type { ImageLimits, ImageRefusal, ProcessedImage } from './image-processing.js';
import type { MediaStore } from './media-store.js';

export interface StoredImage {
  mediaKey: string;
  contentType: string;
  byteSize: number;
  width: number | null;
  height: number | null;
}

/** An upload that decoded: the file as sent (for Idempotency-Key fingerprints) and the image as re-encoded. */
export interface CheckedImage extends UploadedFile {
  image: ProcessedImage;
}

/**
 * Checks uploads, then stores them. `check` decodes and re-encodes every file in the image process
 * (image-process.ts), through the decode gate (one at a time per app, a bounded number at once), with 400 P0012
 * for a file that is not a JPEG, PNG, WebP or GIF that decodes, 400 P0011 for one over the pixel or decoded-bytes
 * limit, and 502 P0013 when the image process ended or ran out of time before answering. It is part of validating
 * a request, and runs after the operation limit admitted it (a refused body gives the count back). `storeAll`
 * stores the re-encoded images, without metadata; if storing fails part-way, what was stored is removed again and
 * the request fails with 502 P0013. Callers store first and write rows after, calling `discard` if the rows fail.
 */
export class ImageUploads {
  constructor(
    private readonly store: MediaStore,
    private readonly log: FastifyBaseLogger,
    private readonly limits: ImageLimits,
    private readonly gate: DecodeGate,
    private readonly images: ImageProcess,
  ) {}

  /** `app`: who is uploading (the OAuth client), whose decodes the gate runs one at a time. */
  async check(files: UploadedFile[], field: string, app: string): Promise<CheckedImage[]> {
    const checked: CheckedImage[] = [];
    for (const [i, file] of files.entries()) {
      const which = `Part "${field}" #${i + 1} (${JSON.stringify(file.filename)})`;
      const image = await this.gate.run(app, () => this.process(file.bytes, which, field));
      if (image === 'too-many-pixels')
        throw new ApiError('P0011', `${which} has more than ${this.limits.maxPixels} pixels`, field);
      if (image === 'too-many-bytes') {
        throw new ApiError(
          'P0011',
          `${which} would take more than ${this.limits.maxDecodedBytes} bytes once decoded (width × height × channels × bytes per sample)`,
          field,
        );
      }
      if (typeof image === 'string')
        throw new ApiError('P0012', `${which} is not a JPEG, PNG, WebP or GIF image that decodes`, field);
      checked.push({ ...file, image });
    }
    return checked;
  }

  /** The image process's answer; 502 P0013 when it ended or ran out of time before answering. */
  private async process(bytes: Buffer, which: string, field: string): Promise<ProcessedImage | ImageRefusal> {
    try {
      return await this.images.process(bytes, this.limits);
    } catch (err) {
      if (!(err instanceof ImageProcessFailed)) throw err;
      this.log.error({ err }, 'an image could not be processed');
      throw new ApiError('P0013', `${which} could not be processed; nothing was saved. Try again.`, field);
    }
  }

  async storeAll(folder: string, images: CheckedImage[], field: string): Promise<StoredImage[]> {
    const stored: StoredImage[] = [];
    try {
      for (const { image } of images) {
        const mediaKey = `${folder}/${randomBytes(16).toString('base64url')}.${image.extension}`;
        await this.store.put(mediaKey, image.bytes, image.contentType);
        stored.push({
          mediaKey,
          contentType: image.contentType,
          byteSize: image.bytes.length,
          width: image.width,
          height: image.height,
        });
      }
      return stored;
    } catch (err) {
      await this.discard(stored.map((s) => s.mediaKey));
      this.log.error({ err }, 'could not store an image');
      throw new ApiError('P0013', 'The images could not be stored; nothing was saved. Try again.', field);
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
