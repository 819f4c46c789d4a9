import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(new URL('..', import.meta.url).pathname);
const hasNginx = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].some((p) => fs.existsSync(p));

interface Report {
  requests: number;
  failed: number;
  writesAcknowledged: number;
  writesLost: number;
  restartsFailed: number;
  byKind: Array<{ kind: string; requests: number; failed: number }>;
  failures: string[];
  metrics: { direct: number; throughNginx: number };
}

/**
 * docs/deployment.md's drill, as an operator runs it: two compiled instances on PostgreSQL and Redis behind nginx
 * (the repository's deploy/nginx files), reads and writes through nginx the whole time, deploy/rolling-restart.sh
 * restarting both. Not one request may fail and every acknowledged write must be readable afterwards.
 */
describe.runIf(process.env.TEST_DATABASE_URL && (hasNginx || process.env.CI_REQUIRE_NGINX))(
  'a rolling restart behind nginx',
  () => {
    it('restarts both instances one at a time under load with zero failed requests and no lost write', async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/rolling-restart-drill.ts', '--json'], {
        cwd: ROOT,
        env: process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      const last = stdout.trimEnd().split('\n').at(-1) ?? '';
      expect(last.startsWith('{'), `${stdout}\n${stderr}`).toBe(true);
      const report = JSON.parse(last) as Report;
      expect(report.failures, stderr).toEqual([]);
      expect(report.failed).toBe(0);
      expect(report.restartsFailed).toBe(0);
      expect(report.writesLost).toBe(0);
      // It was under load the whole time: every kind of request, and writes, in thousands.
      expect(report.requests).toBeGreaterThan(2_000);
      expect(report.writesAcknowledged).toBeGreaterThan(20);
      expect(report.byKind.map((k) => k.kind)).toEqual([
        'event search',
        'job search',
        'post create',
        'post detail',
        'post search',
      ]);
      // The instances' metrics answer on their own addresses; the shipped nginx site does not pass /metrics on.
      expect(report.metrics).toEqual({ direct: 200, throughNginx: 404 });
      expect(code).toBe(0);
    }, 240_000);
  },
);
