/** Where uploaded images live. Keys are random and never reused, so stored objects never change. */
export interface MediaStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<{ bytes: Buffer; contentType: string } | null>;
  delete(key: string): Promise<void>;
  /** The keys of objects stored before `before` (epoch ms), a page at a time. */
  keysStoredBefore(before: number): AsyncIterable<string[]>;
  /** Removes what writes interrupted before `before` left behind (temporary files); how many. */
  removeUnfinished(before: number): Promise<number>;
}

/** A media key: folders of lower-case letters, digits and dashes, then a file name with an extension. */
export const MEDIA_KEY = /^[a-z0-9-]+(\/[A-Za-z0-9_-]+)*\/[A-Za-z0-9_-]+\.(jpg|png|webp|gif)$/;
