import argon2 from 'argon2';

/** argon2id's cost: the memory one hash fills (KiB) and how many passes it makes over it. */
export interface PasswordCost {
  memoryKiB: number;
  passes: number;
}

/** The service's default: 64 MiB, 3 passes (what a hash costs: docs/performance.md). */
export const DEFAULT_PASSWORD_COST: PasswordCost = { memoryKiB: 65_536, passes: 3 };

/**
 * The least cost the settings accept: OWASP's minimum for argon2id (19 MiB, 2 passes). The tests hash at it; no
 * deployment can be set below it.
 */
export const MIN_PASSWORD_COST: PasswordCost = { memoryKiB: 19_456, passes: 2 };

/** An argon2id hash of `password` at `cost` (its parameters are kept in the hash, so any cost verifies). */
export function hashPassword(password: string, cost: PasswordCost): Promise<string> {
  return argon2.hash(password, {
    type: argon2.argon2id,
    memoryCost: cost.memoryKiB,
    timeCost: cost.passes,
    parallelism: 4,
  });
}

/** Whether `password` matches `hash`; a malformed hash matches nothing. */
export function verifyPassword(hash: string, password: string): Promise<boolean> {
  return argon2.verify(hash, password).catch(() => false);
}
