/**
 * The official MCP conformance suite (`conformance server`) against the endpoint of a listening service: every
 * scenario of its active suite passes, except those listed with their reason in fixtures/mcp-conformance-expected.yml
 * (which must fail: a scenario that starts to pass has to leave the list). The suite's client sends no custom header,
 * so a small proxy in front adds the demo app key (and
 * stands in for the service's origin). The suite needs Node.js 22 or later (CI's drills run on 26).
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

describe('the official MCP conformance suite', () => {
  let t: ListeningApp;
  let proxy: http.Server;
  const self = () => `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  beforeAll(async () => {
    t = await startListeningApp('sqlite');
    const target = new URL(t.base);
    proxy = http.createServer((request, response) => {
      const out = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: request.url,
          method: request.method,
          // The proxy stands in for the service's address: its own origin is the service's; any other passes as sent.
          headers: {
            ...request.headers,
            'x-svc-api-key': t.demo.apiKey,
            ...(request.headers.origin === self() ? { origin: t.base } : {}),
          },
        },
        (answer) => {
          response.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(response);
        },
      );
      out.on('error', () => {
        response.writeHead(502);
        response.end();
      });
      request.pipe(out);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    await t?.close();
  });

  it.runIf(NODE_MAJOR >= 22)(
    'passes every scenario that applies to a tools-only server',
    async () => {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
      const cli = path.resolve('node_modules/@modelcontextprotocol/conformance/dist/index.js');
      const expected = path.resolve('test/fixtures/mcp-conformance-expected.yml');
      const run = await promisify(execFile)(
        process.execPath,
        [cli, 'server', '--url', url, '--expected-failures', expected],
        { maxBuffer: 16 * 1024 * 1024 },
      ).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
      );
      expect(run.stdout).toMatch(/server-initialize: 1 passed, 0 failed/);
      expect(run.stdout).toMatch(/tools-list: 1 passed, 0 failed/);
      expect(run.stdout).toMatch(/dns-rebinding-protection: 2 passed, 0 failed/);
      expect(run.code, run.stdout.slice(-3000)).toBe(0);
    },
    180_000,
  );
});
