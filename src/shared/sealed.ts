/**
 * Secrets kept at rest only encrypted (AES-256-GCM under a key-encryption key): signing keys, and a new key or
 * client secret waiting to be shown once in the console.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export function seal(kek: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', kek, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64')).join('.');
}

/** Throws when the text was not sealed under `kek` or was altered. */
export function unseal(kek: Buffer, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64'));
  const decipher = createDecipheriv('aes-256-gcm', kek, iv!);
  decipher.setAuthTag(tag!);
  return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8');
}
