import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../src/demo/demo-generator.js';
import { freePort } from './helpers/free-port.js';


describe('npm run demo', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-demo-'));
  afterAll(() => { fs.rmSync(dir, { recursive: true, force: true }); });

  it('creates a fresh database with demo data, writes the credentials and serves the API', async () => {
    fs.writeFileSync(path.join(dir, 'service.sqlite'), 'not a database: the demo must start afresh');
    const port = await freePort();
    const child = spawn('npm', ['run', 'demo', '--silent'], {
      env: { ...process.env, PORT: String(port), DATA_DIR: dir, LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'inherit'],
      detached: true, // its own process group, so npm and the server it starts stop together
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    try {
      const base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 60_000;
      let ready = false;
      while (!ready && Date.now() < deadline) {
        ready = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
        if (!ready) await new Promise((r) => setTimeout(r, 250));
      }
      expect(ready).toBe(true);
      const posts = await fetch(`${base}/api/v1/posts?pageSize=1`, { headers: { 'x-svc-api-key': DEMO_API_KEY } });
      expect(posts.status).toBe(200);
      expect(((await posts.json()) as { totalItems: number }).totalItems).toBeGreaterThan(100);
      const credentials = JSON.parse(fs.readFileSync(path.join(dir, 'demo-credentials.json'), 'utf8'));
      expect(credentials.apiKey).toBe(DEMO_API_KEY);
      expect(output).toContain(DEMO_API_KEY);
      expect(output).toContain(`${base}/docs`);
    } finally {
      const exited = new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  }, 90_000);
});
