/**
 * `npm start` runs what `npm run build` made, without compiling: in a copy of the project, a fresh build starts and
 * serves; sources changed since the build are refused with what to do; no build at all says so.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('npm start and the build', () => {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-start-build-'));
  afterAll(() => {
    fs.rmSync(copy, { recursive: true, force: true });
  });
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json'])
    fs.copyFileSync(path.join(ROOT, file), path.join(copy, file));
  fs.cpSync(path.join(ROOT, 'src'), path.join(copy, 'src'), { recursive: true });
  for (const linked of ['node_modules', 'views']) fs.symlinkSync(path.join(ROOT, linked), path.join(copy, linked));
  const npm = (args: string[], env: Record<string, string> = {}) =>
    spawnSync('npm', args, { cwd: copy, encoding: 'utf8', env: { ...process.env, ...env } });

  it('says there is no build, and how to make one, before anything else', () => {
    const started = npm(['start', '--silent']);
    expect(started.status).toBe(1);
    expect(started.stderr).toContain('No build in dist/: run npm run build');
  });

  it('starts a fresh build without compiling, and refuses one older than its sources', async () => {
    const built = npm(['run', 'build', '--silent']);
    expect(built.status, built.stdout + built.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(copy, 'dist/build-stamp.json'), 'utf8')).sources).toMatch(
      /^[0-9a-f]{64}$/,
    );

    const port = await freePort();
    const server = spawn('npm', ['start', '--silent'], {
      cwd: copy,
      detached: true,
      stdio: 'ignore',
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: path.join(copy, 'data'),
        SIGNING_KEY_SECRET: 'start-build-test-secret-0123456789abcdef',
      },
    });
    const exited = new Promise((resolve) => server.once('exit', resolve));
    try {
      await expect
        .poll(
          () =>
            fetch(`http://127.0.0.1:${port}/healthz`).then(
              (r) => r.status,
              () => 0,
            ),
          { timeout: 60_000, interval: 200 },
        )
        .toBe(200);
      // What npm runs is the compiled server itself (its shell replaced by it), not a compiler first.
      expect(spawnSync('ps', ['-o', 'args=', '--ppid', String(server.pid)], { encoding: 'utf8' }).stdout.trim()).toBe(
        'node --max-old-space-size=512 --max-semi-space-size=8 dist/server.js',
      );
    } finally {
      process.kill(-server.pid!, 'SIGTERM');
      await exited;
    }

    fs.appendFileSync(path.join(copy, 'src/config.ts'), '\n// changed after the build\n');
    const stale = npm(['start', '--silent'], { PORT: String(port) });
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain(
      'The sources in src/ changed since dist/ was built. Run `npm run build`, then start again.',
    );
  }, 180_000);
});
