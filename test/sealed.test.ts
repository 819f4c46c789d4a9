import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { seal, unseal } from '../src/shared/sealed.js';

/** Secrets at rest (src/shared/sealed.ts): AES-256-GCM with its full 16-byte tag, and nothing shorter taken. */
describe('sealed secrets', () => {
  const kek = randomBytes(32);

  it('opens what it sealed, and refuses another key or an altered body', () => {
    const sealed = seal(kek, 'whsec_a secret');
    expect(unseal(kek, sealed)).toBe('whsec_a secret');
    expect(() => unseal(randomBytes(32), sealed)).toThrow();
    const [iv, tag, body] = sealed.split('.');
    const altered = Buffer.from(body!, 'base64');
    altered[0]! ^= 1;
    expect(() => unseal(kek, [iv, tag, altered.toString('base64')].join('.'))).toThrow();
  });

  it('refuses a tag shorter than 16 bytes, which Node would otherwise check on its first bytes alone', () => {
    const [iv, tag, body] = seal(kek, 'a signing key').split('.');
    for (const bytes of [4, 8, 12, 15]) {
      const short = Buffer.from(tag!, 'base64').subarray(0, bytes).toString('base64');
      expect(() => unseal(kek, [iv, short, body].join('.')), `${bytes} bytes`).toThrow(/tag of \d+ bytes, not 16/);
    }
  });
});
