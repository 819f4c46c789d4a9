/**
 * mcp-remote (the stdio bridge Claude Desktop and other hosts use for remote servers), unchanged and with no options
 * but the URL and a callback port (issue 68): it registers itself, prints where the user must go, the user signs in and
 * allows it in Chromium, its own callback server takes the code, and JSON-RPC over its stdin then reaches a public
 * tool and a user tool with OAuth alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowInChromium, hasChromium, launchChromium } from './helpers/browser.js';
import { freePort } from '../support/free-port.js';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';

describe.runIf(hasChromium || process.env.CI_REQUIRE_BROWSER)(
  'mcp-remote with no options against the MCP endpoint',
  () => {
    let t: ListeningApp;
    let browser: Browser;
    let bridge: ChildProcess | undefined;
    const config = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-mcp-remote-'));
    beforeAll(async () => {
      t = await startListeningApp('sqlite');
      browser = await launchChromium();
    });
    afterAll(async () => {
      bridge?.kill('SIGKILL');
      await browser?.close();
      await t?.close();
      fs.rmSync(config, { recursive: true, force: true });
    });

    it("registers, takes the user's consent through its own callback, and bridges search_jobs and get_me", async () => {
      const callbackPort = await freePort();
      bridge = spawn(
        process.execPath,
        [path.resolve('node_modules/mcp-remote/dist/proxy.js'), `${t.base}/mcp`, String(callbackPort)],
        {
          // Its own settings folder, and no desktop to open a browser in: it prints the address instead.
          env: { ...process.env, MCP_REMOTE_CONFIG_DIR: config, BROWSER: 'none', DISPLAY: '' },
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      let stdout = '';
      bridge.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      bridge.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
      });
      await expect
        .poll(() => /Please authorize this client by visiting:\s+(\S+)/.exec(stderr)?.[1], {
          timeout: 30_000,
          interval: 50,
        })
        .toBeTruthy();
      const authorization = new URL(/Please authorize this client by visiting:\s+(\S+)/.exec(stderr)![1]!);
      expect(`${authorization.origin}${authorization.pathname}`).toBe(`${t.base}/oauth/authorize`);
      expect(authorization.searchParams.get('client_id')).toMatch(/^svcd_/);

      await allowInChromium(browser, authorization, t.demo.user, (sent) => sent.includes(`:${callbackPort}/`));

      // The bridge now speaks MCP on its stdio, one JSON-RPC message a line.
      const send = (message: object) => bridge!.stdin!.write(`${JSON.stringify(message)}\n`);
      const answer = async (id: number) => {
        await expect
          .poll(() => stdout.split('\n').some((line) => line.includes(`"id":${id}`)), { timeout: 30_000, interval: 50 })
          .toBe(true);
        return JSON.parse(stdout.split('\n').find((line) => line.includes(`"id":${id}`))!) as {
          result?: { structuredContent?: Record<string, unknown>; isError?: boolean };
        };
      };
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'stdio-host', version: '1.0.0' },
        },
      });
      await answer(1);
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'search_jobs', arguments: { pageSize: 1 } },
      });
      const jobs = await answer(2);
      expect(jobs.result?.isError ?? false, JSON.stringify(jobs)).toBe(false);
      expect((jobs.result?.structuredContent as { items: unknown[] }).items).toHaveLength(1);
      send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_me', arguments: {} } });
      expect((await answer(3)).result?.structuredContent).toMatchObject({ preferred_username: t.demo.user.handle });
    }, 90_000);
  },
);
