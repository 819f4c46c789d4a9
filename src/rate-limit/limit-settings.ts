import { SETTINGS } from '../settings.js';

/** Every rate-limit setting (global and each operation window) set to `value`: for load tests and benchmarks. */
export function allLimitSettings(value: number): Record<string, string> {
  return Object.fromEntries(
    Object.keys(SETTINGS)
      .filter((name) => /^RATE_LIMIT_.*_PER_/.test(name))
      .map((name) => [name, String(value)]),
  );
}
