import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBenchmark, table } from '../bench/run.js';

// Keeps the benchmark harness working; asserts nothing about speed.
describe('benchmark harness (--quick on tiny data)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-smoke-'));
  afterAll(() => { fs.rmSync(dataDir, { recursive: true, force: true }); });

  it('generates data, starts the service, measures a read and a write against the bare server', async () => {
    const results = await runBenchmark({ db: 'sqlite', quick: true, posts: 200, connections: 2, seconds: 1, dataDir, scenario: 'post' });
    expect(results.map((r) => r.scenario)).toEqual(['post detail', 'post search, Korean 개발', 'post search RECENT p1', 'post search RECENT p2000', 'post create, one image']);
    for (const r of results) {
      expect(r.errors, r.scenario).toBe(0);
      expect(r.requestsPerSecond).toBeGreaterThan(0);
      expect(r.bareRequestsPerSecond).toBeGreaterThan(0);
      expect(r.peakRssMb).toBeGreaterThan(0);
    }
    expect(table(results)).toContain('| post detail | 200 |');
  }, 120_000);
});
