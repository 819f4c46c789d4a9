/** Where uploaded images live. Keys are random and never reused, so stored objects never change. */
export interface MediaStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<{ bytes: Buffer; contentType: string } | null>;
  delete(key: string): Promise<void>;
}

/** A media key: folders of lower-case letters, digits and dashes, then a file name with an extension. */
export const MEDIA_KEY = /^[a-z0-9-]+(\/[A-Za-z0-9_-]+)*\/[A-Za-z0-9_-]+\.(jpg|png|webp|gif)$/;
