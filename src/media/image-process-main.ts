/**
 * The image process's program: image-process.ts starts it and sends it uploads, one message each, over the IPC
 * channel (advanced serialization, so bytes travel as bytes). It decodes and re-encodes them with
 * image-processing.ts and answers each by its id. It says when it is ready (the image library loaded, so an
 * image's time is its own), has no other work, and ends when the service closes the channel or is gone.
 */
import { loadSharp, processImage, type ImageLimits } from './image-processing.js';

/** What the service sends: an upload to process, named by an id the answer repeats. */
export interface ImageJob {
  id: number;
  bytes: Uint8Array;
  limits: ImageLimits;
}

/** What this process answers: the outcome of processImage, or why it failed; and once, that it is ready. */
export type ImageJobAnswer =
  | { id: number; result: Awaited<ReturnType<typeof processImage>> }
  | { id: number; failed: string }
  | { ready: true };

function answer(message: ImageJobAnswer): void {
  process.send?.(message);
}

process.on('message', ({ id, bytes, limits }: ImageJob) => {
  processImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), limits).then(
    (result) => answer({ id, result }),
    (err: unknown) => answer({ id, failed: err instanceof Error ? err.message : String(err) }),
  );
});
process.on('disconnect', () => process.exit(0));
// Ready either way: if the library did not load, each image's answer says why.
loadSharp()
  .finally(() => answer({ ready: true }))
  .catch(() => {});
