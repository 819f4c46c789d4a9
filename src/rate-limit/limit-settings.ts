import { OPERATION_IDS } from '../config.js';

/** Every rate-limit setting (global and each operation window) set to `value`: for load tests and benchmarks. */
export function allLimitSettings(value: number): Record<string, string> {
  return Object.fromEntries([
    ['RATE_LIMIT_GLOBAL_PER_MINUTE', String(value)], ['RATE_LIMIT_GLOBAL_PER_DAY', String(value)],
    ...OPERATION_IDS.flatMap((op) => ['MINUTE', 'HOUR', 'DAY'].map((w) => [`RATE_LIMIT_${op.toUpperCase().replace(/\./g, '_')}_PER_${w}`, String(value)])),
  ]);
}
