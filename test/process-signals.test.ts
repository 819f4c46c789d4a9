import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { realWait } from './helpers/real-time.js';

const ROOT = path.resolve(new URL('..', import.meta.url).pathname);

/**
 * Starts `npm <args>` in `cwd` as a process manager would (npm's own PID, no process group of ours), waits until
 * the service is ready, sends SIGTERM to exactly that PID, and reports what happened.
 */
async function stopWithSigterm(
  args: string[],
  cwd: string,
  dataDir: string,
  whileReady: (npmPid: number) => void = () => {},
) {
  const port = await freePort();
  const child = spawn('npm', args, {
    cwd,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      SIGNING_KEY_SECRET: 'signals-test-secret-0123456789abcdef',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  let ready = false;
  while (!ready && Date.now() < deadline) {
    ready = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (!ready) await realWait(250, 'poll');
  }
  expect(ready, output).toBe(true);
  whileReady(child.pid!);
  process.kill(child.pid!, 'SIGTERM');
  const code = await Promise.race([
    exited,
    new Promise<'still running'>((r) => setTimeout(() => r('still running'), 20_000)),
  ]);
  // Whatever npm did, nothing may be left serving on the port.
  const afterwards = await fetch(`${base}/readyz`).then(
    (r) => r.status,
    () => 'refused',
  );
  return { code, afterwards, output };
}

/** The environment of the process running `dist/server.js` among the descendants of `pid` (Linux's /proc). */
function serverEnvironment(pid: number): string[] {
  const parentOf = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      parentOf.set(Number(entry), Number(fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]));
    } catch {
      /* ended meanwhile */
    }
  }
  const descends = (child: number): boolean =>
    child === pid || (parentOf.has(child) && child !== 1 && descends(parentOf.get(child)!));
  const server = [...parentOf.keys()].find(
    (child) => descends(child) && fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('dist/server.js'),
  );
  expect(server, 'the server process under npm').toBeDefined();
  return fs.readFileSync(`/proc/${server}/environ`, 'utf8').split('\0');
}

describe("a supervisor's SIGTERM to the documented commands", () => {
  const dirs: string[] = [];
  const tempDir = (name: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), name));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('npm run demo: the server itself gets the signal, drains, and nothing is left serving', async () => {
    const { code, afterwards, output } = await stopWithSigterm(
      ['run', 'demo', '--silent'],
      ROOT,
      tempDir('svc-signal-demo-'),
    );
    expect(output).toContain('shutting down: finishing in-flight requests');
    expect(output).toMatch(/finishing in-flight requests[^]*stopped/);
    expect(code).toBe(0);
    expect(afterwards).toBe('refused');
  }, 120_000);

  it('npm start: the same, from a copy of the start with the compiled service', async () => {
    // A copy of the project's start: its package.json, with the compiled service (the drills' build), node_modules
    // and views linked.
    const copy = tempDir('svc-signal-start-');
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(copy, 'package.json'));
    for (const linked of ['dist', 'node_modules', 'views'])
      fs.symlinkSync(path.join(ROOT, linked), path.join(copy, linked));
    let environment: string[] = [];
    const { code, afterwards, output } = await stopWithSigterm(
      ['start', '--ignore-scripts'],
      copy,
      tempDir('svc-signal-data-'),
      (npm) => {
        environment = serverEnvironment(npm);
      },
    );
    // Two malloc arenas and a fixed mmap threshold: set by the start script itself (README), not left to whoever runs it.
    expect(environment).toContain('MALLOC_ARENA_MAX=2');
    expect(environment).toContain('MALLOC_MMAP_THRESHOLD_=131072');
    expect(output).toContain('shutting down: finishing in-flight requests');
    expect(output).toMatch(/finishing in-flight requests[^]*stopped/);
    expect(code).toBe(0);
    expect(afterwards).toBe('refused');
  }, 180_000);
});

describe('SHUTDOWN_DRAIN_MS: the drain before the listener closes', () => {
  it('keeps serving for the drain, with /readyz 503 and no connection kept alive, then stops accepting and exits 0', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-signal-drain-'));
    const port = await freePort();
    const child = spawn(process.execPath, ['dist/server.js'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SHUTDOWN_DRAIN_MS: '3000',
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        SIGNING_KEY_SECRET: 'signals-test-secret-0123456789abcdef',
      },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 60_000;
      while (
        !(await fetch(`${base}/readyz`).then(
          (r) => r.ok,
          () => false,
        ))
      ) {
        expect(Date.now() < deadline, output).toBe(true);
        await realWait(200, 'poll');
      }
      const before = await fetch(`${base}/healthz`);
      expect(before.headers.get('connection')).toBe('keep-alive');
      const signalled = Date.now();
      process.kill(child.pid!, 'SIGTERM');
      await realWait(500, 'quiet');
      // Draining: still answering, telling the proxy to stop sending, closing each connection after its answer.
      const readiness = await fetch(`${base}/readyz`);
      expect(readiness.status).toBe(503);
      expect(await readiness.json()).toEqual({ status: 'shutting down' });
      const during = await fetch(`${base}/healthz`);
      expect(during.status).toBe(200);
      expect(during.headers.get('connection')).toBe('close');
      expect(Date.now() - signalled).toBeLessThan(3_000);
      expect(await exited).toBe(0);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(3_000);
      expect(
        await fetch(`${base}/healthz`).then(
          (r) => r.status,
          () => 'refused',
        ),
      ).toBe('refused');
      expect(output).toContain('shutting down: draining');
    } finally {
      child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
