/**
 * The MCP Inspector's CLI (2.12), unchanged, in both protocol eras (issue 68): with the app key in a header it lists
 * the tools; with nothing but the URL it registers itself, sends the user to sign in (here Chromium, as a person would),
 * takes the code on a callback port of its own choosing, and calls a public tool and a user tool with OAuth alone.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowInChromium, hasChromium, launchChromium } from './helpers/browser.js';
import { freePort } from '../support/free-port.js';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';

const INSPECTOR = path.resolve('node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');

interface Run {
  /** The authorization address it asked the user to open, once it has printed it. */
  authorization(): URL | null;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

describe.runIf(hasChromium || process.env.CI_REQUIRE_BROWSER)('the MCP Inspector CLI against the MCP endpoint', () => {
  let t: ListeningApp;
  let browser: Browser;
  const homes = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-inspector-'));
  beforeAll(async () => {
    t = await startListeningApp('sqlite');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    fs.rmSync(homes, { recursive: true, force: true });
  });

  /** One run of the CLI, as a host of its own: a new home, so nothing it registered or stored before is reused. */
  function inspector(args: string[]): Run {
    const home = fs.mkdtempSync(path.join(homes, 'home-'));
    const child = spawn(process.execPath, [INSPECTOR, '--cli', `${t.base}/mcp`, '--format', 'json', ...args], {
      // Its own home (catalog, stored sign-ins), secrets kept in memory, and no terminal: it prints where the user
      // must go rather than asking at a prompt.
      env: {
        ...process.env,
        HOME: home,
        MCP_INSPECTOR_SECRET_STORE: 'memory',
        MCP_AUTO_OPEN_ENABLED: 'true',
        BROWSER: 'none',
        DISPLAY: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 80_000);
    return {
      authorization: () => {
        const found = /Please navigate to:\s+(\S+)/.exec(stdout + stderr)?.[1];
        return found ? new URL(found) : null;
      },
      done: new Promise((resolve) =>
        child.on('close', (code) => {
          clearTimeout(killer);
          resolve({ code, stdout, stderr });
        }),
      ),
    };
  }

  const result = (stdout: string) => (JSON.parse(stdout) as { result: Record<string, unknown> }).result;

  /** The MCP messages the service logged for the demo app since `since` (its console's request log). */
  async function loggedSince(since: number): Promise<string[]> {
    await t.app.requestLog.flush();
    const rows = await t.db.database.db
      .selectFrom('app_requests')
      .select('operation')
      .where('at', '>=', since)
      .orderBy('id')
      .execute();
    return rows.map((row) => row.operation);
  }

  it.each([
    // The 2026-07-28 revision has no handshake: the host asks server/discover, then lists.
    ['legacy', ['mcp initialize', 'mcp tools/list']],
    ['modern', ['mcp server/discover', 'mcp tools/list']],
  ])(
    'lists the tools with the app key in the %s era',
    async (era, messages) => {
      const since = Date.now();
      const { code, stdout, stderr } = await inspector([
        '--protocol-era',
        era,
        '--method',
        'tools/list',
        '--header',
        `X-SVC-API-Key: ${t.demo.apiKey}`,
      ]).done;
      expect(code, stderr).toBe(0);
      const names = (result(stdout).tools as { name: string }[]).map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining(['search_jobs', 'get_job', 'search_posts', 'get_me', 'list_my_company_permissions']),
      );
      expect(await loggedSince(since)).toEqual(expect.arrayContaining(messages));
    },
    60_000,
  );

  it.each([
    ['modern', 'search_jobs', ['--tool-arg', 'pageSize=1']],
    ['legacy', 'get_me', []],
  ] as const)(
    'signs in by itself in the %s era, on a callback port it chose, and calls %s with OAuth alone',
    async (era, tool, toolArgs) => {
      const port = await freePort();
      const run = inspector([
        '--protocol-era',
        era,
        '--method',
        'tools/call',
        '--tool-name',
        tool,
        ...toolArgs,
        '--callback-url',
        `http://127.0.0.1:${port}/oauth/callback`,
      ]);
      await expect.poll(run.authorization, { timeout: 40_000, interval: 50 }).toBeTruthy();
      const authorization = run.authorization()!;
      expect(`${authorization.origin}${authorization.pathname}`).toBe(`${t.base}/oauth/authorize`);
      expect(authorization.searchParams.get('client_id')).toMatch(/^svcd_/);
      expect(authorization.searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${port}/oauth/callback`);

      await allowInChromium(browser, authorization, t.demo.user, (sent) =>
        sent.startsWith(`http://127.0.0.1:${port}/oauth/callback?`),
      );

      const { code, stdout, stderr } = await run.done;
      expect(code, stderr).toBe(0);
      const answer = result(stdout) as { isError?: boolean; structuredContent: Record<string, unknown> };
      expect(answer.isError ?? false, stdout).toBe(false);
      if (tool === 'search_jobs') expect((answer.structuredContent as { items: unknown[] }).items).toHaveLength(1);
      else expect(answer.structuredContent).toMatchObject({ preferred_username: t.demo.user.handle });
    },
    90_000,
  );
});
