import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER } from '../src/demo/demo-generator.js';
import { freePort } from '../support/free-port.js';
import { Browser, fetchSend } from './helpers/oauth-browser.js';
import { realWait } from './helpers/real-time.js';

const ROOT = path.resolve(new URL('..', import.meta.url).pathname);
const readme = fs.readFileSync(path.join(ROOT, 'docs/getting-started.md'), 'utf8');

/** The first ```sh block after `heading` in docs/getting-started.md. */
function shellBlock(heading: string): string {
  const at = readme.indexOf(heading);
  expect(at, heading).toBeGreaterThan(-1);
  return /```sh\n([\s\S]*?)```/.exec(readme.slice(at))![1]!;
}

/**
 * Every request in the blocks fails the run on an HTTP error (curl's --fail-with-body), and bash stops at the first
 * failing command: the blocks run as written, top to bottom, as in a fresh terminal.
 */
const STRICT_CURL = 'curl() { command curl --silent --show-error --fail-with-body "$@"; echo; }\n';

describe('the shell blocks of docs/getting-started.md, run against npm run demo', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-readme-'));
  let base = '';
  let demo: ReturnType<typeof spawn> | undefined;
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    demo = spawn('npm', ['run', 'demo', '--silent'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), DATA_DIR: dir, LOG_LEVEL: 'warn' },
      stdio: 'ignore',
      detached: true,
    });
    const deadline = Date.now() + 60_000;
    while (
      Date.now() < deadline &&
      !(await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      ))
    )
      await realWait(250, 'poll');
  }, 90_000);
  afterAll(async () => {
    if (demo?.pid) {
      const exited = new Promise((r) => (demo!.exitCode !== null ? r(null) : demo!.once('exit', r)));
      process.kill(-demo.pid, 'SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  /** Runs `script` in bash from the repository's root; `answer` is called with each line it prints and may answer on its input. */
  function bash(
    script: string,
    answer?: (line: string) => Promise<string | null>,
  ): Promise<{ code: number | null; output: string }> {
    return new Promise((resolve) => {
      const child = spawn('bash', ['-eo', 'pipefail', '-c', script], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
      let output = '';
      let pending = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        pending += chunk.toString();
        const lines = pending.split('\n');
        pending = lines.pop()!;
        for (const line of lines)
          void answer?.(line).then((reply) => {
            if (reply !== null) child.stdin.write(`${reply}\n`);
          });
      });
      child.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.once('exit', (code) => resolve({ code, output }));
    });
  }

  const here = (block: string) => block.replace('API=http://127.0.0.1:8080', `API=${base}`);

  it('"Calling the API": every request answers 2xx', async () => {
    const { code, output } = await bash(STRICT_CURL + here(shellBlock('## Calling the API')));
    expect(code, output).toBe(0);
    expect(output).toContain('"totalItems"');
    expect(output).toContain('"displayName"');
  }, 60_000);

  it('"Acting for a user", then the writes: sign in where it says, paste the code, and every later command works', async () => {
    const oauth = here(shellBlock('## Acting for a user'));
    const writes = shellBlock('With a token the app writes');
    const browser = new Browser(fetchSend(base));
    const { code, output } = await bash(STRICT_CURL + oauth + writes, async (line) => {
      if (!line.startsWith(`${base}/oauth/authorize?`)) return null;
      // Step 2, done by a browser: sign in as the page says, allow, and read the code off the callback address.
      const callback = await browser.authorize(line.slice(base.length), {
        email: DEMO_USER.email,
        password: DEMO_USER.password,
      });
      return callback.searchParams.get('code');
    });
    expect(code, output).toBe(0);
    expect(output).toContain('"access_token"');
    expect(output).toContain('"sub"');
    expect(output).toMatch(/"owned":(true|false)/);
    expect(output).toContain('"status":"published"');
    expect(output).toContain('"companies"');
    // The last command revoked the refresh token: the access token is refused now.
    const token = /"access_token":"([^"]+)"/g;
    const last = [...output.matchAll(token)].at(-1)![1]!;
    expect((await fetch(`${base}/oauth/userinfo`, { headers: { authorization: `Bearer ${last}` } })).status).toBe(401);
  }, 90_000);
});
