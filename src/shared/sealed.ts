/**
 * Secrets kept at rest only encrypted (AES-256-GCM under a key-encryption key): signing keys, and a new key or
 * client secret waiting to be shown once in the console.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** GCM's full tag: a shorter one is a forgery made easier (Node accepts 4 to 16 bytes unless told, DEP0182). */
const TAG_BYTES = 16;

export function seal(kek: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', kek, iv, { authTagLength: TAG_BYTES });
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64')).join('.');
}

/** Throws when the text was not sealed under `kek` or was altered. */
export function unseal(kek: Buffer, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64'));
  if (tag?.length !== TAG_BYTES)
    throw new Error(`A sealed secret carries a tag of ${tag?.length ?? 0} bytes, not ${TAG_BYTES}`);
  const decipher = createDecipheriv('aes-256-gcm', kek, iv!, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag!);
  return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8');
}
