import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBenchmark, table } from '../bench/run.js';

// Keeps the benchmark harness working; asserts nothing about speed.
describe('benchmark harness (--quick on tiny data)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-smoke-'));
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('generates data, starts the service, measures realistic reads, writes alongside and a hot read against the bare server', async () => {
    const results = await runBenchmark({
      db: 'sqlite',
      quick: true,
      posts: 200,
      connections: 2,
      seconds: 1,
      dataDir,
      scenario: 'post|mixed|company|profile',
    });
    expect(results.map((r) => r.scenario)).toEqual([
      'distinct post searches',
      'distinct company searches',
      'random company detail',
      'distinct profile searches',
      'distinct post searches beside 3 writes/s',
      'distinct profile searches beside 3 writes/s',
      'random profile detail',
      'random post detail',
      'random post detail beside broad searches',
      'mixed reads alone, no writes',
      'mixed: 90% distinct reads + 3 writes/s',
      'post create, one image',
      'first request, broadest keyword (다)',
    ]);
    for (const r of results.slice(0, -1)) {
      expect(r.errors, r.scenario).toBe(0);
      expect(r.timeouts, r.scenario).toBe(0);
      expect(r.requestsPerSecond).toBeGreaterThan(0);
      expect(r.bareRequestsPerSecond).toBeGreaterThan(0);
      expect(r.peakRssMb).toBeGreaterThan(0);
      // The heaps without the mapped file pages: a share of the resident memory, never more.
      expect(r.peakAnonMb).toBeGreaterThan(0);
      expect(r.peakAnonMb).toBeLessThanOrEqual(r.peakRssMb);
    }
    const mixed = results.find((r) => r.scenario.startsWith('mixed:'))!;
    expect(mixed.writes?.count).toBeGreaterThanOrEqual(2);
    expect(mixed.writes?.failed).toBe(0);
    expect(mixed.writes?.firstUploadMs).toBeGreaterThan(0);
    expect(results.find((r) => r.scenario.startsWith('mixed reads'))!.writes).toBeUndefined();
    expect(results.at(-1)!.firstMs).toBeGreaterThan(0);
    expect(table(results)).toContain('| distinct post searches | 200 |');

    const hot = await runBenchmark({
      db: 'sqlite',
      quick: true,
      posts: 200,
      connections: 2,
      seconds: 1,
      dataDir,
      hot: true,
      scenario: 'hot: post detail',
    });
    expect(hot.map((r) => r.scenario)).toEqual(['hot: post detail', 'first request, broadest keyword (다)']);
    expect(hot[0]!.errors).toBe(0);
  }, 180_000);

  it('writes plain progress lines, not a redrawn bar, when its output is not a terminal', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-data-'));
    try {
      const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/generate-data.ts', '--posts', '5000'], {
        encoding: 'utf8',
        env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect(out).not.toContain('\r');
      const lines = out
        .trimEnd()
        .split('\n')
        .filter((l) => l.startsWith('posts'));
      expect(lines.length).toBeGreaterThanOrEqual(2);
      expect(lines.length).toBeLessThanOrEqual(11);
      expect(lines.at(-1)).toMatch(/^posts\s+\[#{30}\]\s+5000\/5000 /);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
