/**
 * A setup file: the fast tier's files share their worker's modules (vitest.config.ts, `isolate: false`), so a file
 * must leave the worker as it found it. This fails the file that leaves timers faked or the environment changed,
 * rather than a later file that happens to run in the same worker.
 */
import { afterAll, beforeAll, expect, vi } from 'vitest';

let environment: Record<string, string | undefined> = {};

beforeAll(() => {
  environment = { ...process.env };
});

afterAll(() => {
  expect(vi.isFakeTimers(), 'timers left faked: call vi.useRealTimers()').toBe(false);
  expect({ ...process.env }, 'process.env changed by this file').toEqual(environment);
});
