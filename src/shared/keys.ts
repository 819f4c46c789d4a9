import { hash, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** 32 random base62 characters from the system CSPRNG. */
export function randomBase62(length = 32): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

/** A new app key: `svck_` + 32 base62 characters. Shown once; only its hash is stored. */
export function newAppKey(): string {
  return `svck_${randomBase62()}`;
}

/** A new OAuth client secret: `svcs_` + 32 base62 characters. */
export function newClientSecret(): string {
  return `svcs_${randomBase62()}`;
}

export const APP_KEY_PATTERN = /^svck_[0-9A-Za-z]{32}$/;

/**
 * Keys carry 190 bits of randomness, so a fast hash is enough to make a stolen table useless
 * (no dictionary to try); a slow password hash would only slow every request.
 */
export function hashSecret(secret: string): string {
  // The one-shot form: no Hash object per call (app keys are hashed on every request).
  return hash('sha256', secret, 'hex');
}

/** The last four characters, kept to help an operator recognise a key without storing it. */
export function secretHint(secret: string): string {
  return secret.slice(-4);
}
