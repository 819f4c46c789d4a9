import { SETTINGS } from '../settings.js';

/**
 * Every rate-limit setting (global, each operation window, and the distinct profiles an app reads a day) set to
 * `value`: for load tests and benchmarks.
 */
export function allLimitSettings(value: number): Record<string, string> {
  return Object.fromEntries(
    Object.keys(SETTINGS)
      .filter((name) => /^RATE_LIMIT_.*_PER_/.test(name) || name === 'PROFILE_READS_PER_DAY')
      .map((name) => [name, String(value)]),
  );
}
