import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, DEMO_USER } from '../src/demo/demo-generator.js';
import { ConsoleForms } from './helpers/console-forms.js';
import { freePort } from '../support/free-port.js';
import { Browser, fetchSend } from './helpers/oauth-browser.js';
import { realWait } from './helpers/real-time.js';

describe('npm run demo', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-demo-'));
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** `npm run demo` with `args` on a free port of DATA_DIR `dir`, until it serves; `stop()` ends it. */
  async function startDemo(
    args: string[] = [],
  ): Promise<{ base: string; output: () => string; stop: () => Promise<void> }> {
    const port = await freePort();
    const child = spawn('npm', ['run', 'demo', '--silent', ...(args.length ? ['--', ...args] : [])], {
      env: { ...process.env, PORT: String(port), DATA_DIR: dir, LOG_LEVEL: 'warn', LOG_FORMAT: undefined },
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const stop = async () => {
      const exited = new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    };
    const base = `http://127.0.0.1:${port}`;
    await expect
      .poll(
        () =>
          fetch(`${base}/readyz`).then(
            (r) => r.ok,
            () => false,
          ),
        { timeout: 60_000, interval: 250 },
      )
      .toBe(true);
    return { base, output: () => output, stop };
  }

  it('keeps DATA_DIR across restarts, on another port too, and starts over with --fresh (saying so)', async () => {
    let demo = await startDemo();
    let made: { apiKey: string };
    try {
      const forms = new ConsoleForms(demo.base);
      await forms.signIn({ email: DEMO_USER.email, password: DEMO_USER.password });
      made = await forms.createApp('Made between two runs');
      expect(
        (await fetch(`${demo.base}/api/v1/posts?pageSize=1`, { headers: { 'x-svc-api-key': made.apiKey } })).status,
      ).toBe(200);
    } finally {
      await demo.stop();
    }
    demo = await startDemo();
    try {
      expect(demo.output()).toContain('Keeping the demo data of');
      expect(
        (await fetch(`${demo.base}/api/v1/posts?pageSize=1`, { headers: { 'x-svc-api-key': made.apiKey } })).status,
      ).toBe(200);
      // The walkthrough's sign-in link works on the new port: the demo client's redirect moved with it.
      const signIn = /(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/.exec(demo.output())![1]!;
      const callback = await new Browser(fetchSend(demo.base)).authorize(signIn.slice(demo.base.length), DEMO_USER);
      expect(`${callback.origin}${callback.pathname}`).toBe(`${demo.base}/callback`);
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'demo-credentials.json'), 'utf8')).apiUrl).toBe(demo.base);
    } finally {
      await demo.stop();
    }
    demo = await startDemo(['--fresh']);
    try {
      expect(demo.output()).toContain('Starting over (--fresh)');
      expect(
        (await fetch(`${demo.base}/api/v1/posts?pageSize=1`, { headers: { 'x-svc-api-key': made.apiKey } })).status,
      ).toBe(401);
      expect(
        (await fetch(`${demo.base}/api/v1/posts?pageSize=1`, { headers: { 'x-svc-api-key': DEMO_API_KEY } })).status,
      ).toBe(200);
    } finally {
      await demo.stop();
    }
  }, 180_000);

  it('creates a fresh database with demo data, writes the credentials and serves the API', async () => {
    fs.writeFileSync(path.join(dir, 'service.sqlite'), 'not a database: the demo must start afresh');
    fs.chmodSync(dir, 0o755);
    const port = await freePort();
    const child = spawn('npm', ['run', 'demo', '--silent'], {
      env: { ...process.env, PORT: String(port), DATA_DIR: dir, LOG_LEVEL: 'info', LOG_FORMAT: undefined },
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true, // its own process group, so npm and the server it starts stop together
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 60_000;
      let ready = false;
      while (!ready && Date.now() < deadline) {
        ready = await fetch(`${base}/readyz`).then(
          (r) => r.ok,
          () => false,
        );
        if (!ready) await realWait(250, 'poll');
      }
      expect(ready).toBe(true);
      // DATA_DIR and the database in it are the service's owner's alone, whatever they were before.
      expect((fs.statSync(dir).mode & 0o777).toString(8)).toBe('700');
      expect((fs.statSync(path.join(dir, 'service.sqlite')).mode & 0o777).toString(8)).toBe('600');
      const posts = await fetch(`${base}/api/v1/posts?pageSize=1`, { headers: { 'x-svc-api-key': DEMO_API_KEY } });
      expect(posts.status).toBe(200);
      expect(((await posts.json()) as { totalItems: number }).totalItems).toBeGreaterThan(100);
      // The demo serves Prometheus metrics (off by default elsewhere), its version in /healthz.
      const metrics = await fetch(`${base}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('http_requests_total{method="GET",route="/api/v1/posts",status="200"} 1');
      expect(((await (await fetch(`${base}/healthz`)).json()) as { version: string }).version).toMatch(
        /^\d+\.\d+\.\d+/,
      );
      const credentials = JSON.parse(fs.readFileSync(path.join(dir, 'demo-credentials.json'), 'utf8'));
      expect(credentials.apiKey).toBe(DEMO_API_KEY);
      expect(output).toContain(DEMO_API_KEY);
      expect(output).toContain(`${base}/docs`);

      // Every address printed at start opens something: the pages answer, and each curl line answers 200.
      for (const url of output.match(/http:\/\/127\.0\.0\.1:\d+\/(?:docs|openapi\.json|readyz)\b/g) ?? []) {
        expect((await fetch(url)).status, url).toBe(200);
      }
      const curls = output.split('\n').filter((line) => line.includes('curl -H'));
      expect(curls.length).toBeGreaterThanOrEqual(5);
      for (const line of curls) {
        const command = line.slice(line.indexOf('curl'));
        expect(
          execFileSync('bash', ['-c', `${command} -s -o /dev/null -w '%{http_code}'`], { encoding: 'utf8' }),
          command,
        ).toBe('200');
      }
      // The translation example reads a post that has an English translation.
      const english = curls.find((line) => line.includes('In English'))!;
      const translated = JSON.parse(
        execFileSync('bash', ['-c', `${english.slice(english.indexOf('curl'))} -s`], { encoding: 'utf8' }),
      );
      expect(translated.language).toBe('en');

      // The walkthrough on this port: the printed sign-in link, the consent page, and the callback page's
      // own curl line, run as printed, get tokens for every scope the README's examples use.
      const signIn = /(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/.exec(output)![1]!;
      expect(new URL(signIn).searchParams.get('redirect_uri')).toBe(`${base}/callback`);
      const browser = new Browser(fetchSend(base));
      const callback = await browser.authorize(signIn.slice(base.length), {
        email: credentials.user.email,
        password: credentials.user.password,
      });
      expect(`${callback.origin}${callback.pathname}`).toBe(`${base}/callback`);
      const page = await fetch(callback);
      const html = await page.text();
      // The page in the console's two languages, styled like it, showing the code itself.
      expect(html).toContain('<html lang="ko">');
      expect(html).toContain('인가 코드를 받았습니다');
      expect(html).toContain(`<code id="code">${callback.searchParams.get('code')}</code>`);
      expect(html).toContain('/console/static/console.css');
      const inEnglish = await (await fetch(callback, { headers: { 'accept-language': 'en' } })).text();
      expect(inEnglish).toContain('Authorization code received');
      const command = /<pre id="exchange">([\s\S]*?)<\/pre>/
        .exec(html)![1]!
        .replace(/&#39;/g, "'")
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>');
      const tokens = JSON.parse(execFileSync('bash', ['-c', `${command} -s`], { encoding: 'utf8' }));
      expect(tokens.scope).toBe('profile email post:write job:write event:write company:manage:read');
      const permissions = await fetch(`${base}/api/v1/me/company-permissions`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(permissions.status).toBe(200);

      // Readable logs: one line a request with method, path, status, app and duration; no code or token.
      await realWait(300, 'quiet');
      const lines = output.split('\n').filter((line) => line.includes('request'));
      expect(
        lines.some(
          (line) =>
            /GET/.test(line) &&
            /\/api\/v1\/posts/.test(line) &&
            /status.*200/.test(line) &&
            /app.*app:\d+/.test(line) &&
            /ms/.test(line),
        ),
        lines.join('\n'),
      ).toBe(true);
      expect(output).not.toMatch(/"time":\d{13}/);
      expect(output).not.toContain(callback.searchParams.get('code')!);
      expect(output).not.toContain(tokens.access_token);
      expect(output).not.toContain(tokens.refresh_token);
    } finally {
      const exited = new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  }, 90_000);
});
