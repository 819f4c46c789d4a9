/**
 * The reference servers of the benchmark, each in its own process like the service (a server inside the
 * load generator's process would share its event loop with autocannon and look slower than it is).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Plain node:http writing one fixed response, after spinning the CPU for REF_WORK_US microseconds (0: none): a
 * server whose own work per request is known, to show what rate that much work leaves on this machine.
 */
const BARE = `
const http = require('node:http');
const body = require('node:fs').readFileSync(process.env.REF_BODY);
const status = Number(process.env.REF_STATUS);
const headers = JSON.parse(process.env.REF_HEADERS);
const work = BigInt(Math.round(Number(process.env.REF_WORK_US) * 1000));
const server = http.createServer((req, res) => {
  req.resume();
  if (work > 0n) for (const end = process.hrtime.bigint() + work; process.hrtime.bigint() < end;);
  res.writeHead(status, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
`;

/** Fastify with no plugins or hooks writing the same response. */
const FASTIFY = `
const body = require('node:fs').readFileSync(process.env.REF_BODY);
const status = Number(process.env.REF_STATUS);
const headers = JSON.parse(process.env.REF_HEADERS);
const app = require('fastify')({ logger: false });
app.all('/*', async (_request, reply) => reply.code(status).headers(headers).send(body));
app.listen({ port: 0, host: '127.0.0.1' }).then(() => process.send(app.server.address().port));
`;

export interface ReferenceServer {
  url: string;
  /** The server's process, for reading its CPU time. */
  pid: number | undefined;
  close(): Promise<void>;
}

/** `workMicros`: for `bare`, the CPU time each request spins before its response (default none). */
export async function referenceServer(
  kind: 'bare' | 'fastify',
  status: number,
  headers: Record<string, string>,
  body: Buffer,
  workMicros = 0,
): Promise<ReferenceServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-ref-'));
  const file = path.join(dir, 'body');
  fs.writeFileSync(file, body);
  const child = spawn(process.execPath, ['-e', kind === 'bare' ? BARE : FASTIFY], {
    cwd: process.cwd(),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: {
      ...process.env,
      REF_BODY: file,
      REF_STATUS: String(status),
      REF_HEADERS: JSON.stringify(headers),
      REF_WORK_US: String(workMicros),
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve(Number(message)));
    child.once('exit', (code) => reject(new Error(`the ${kind} reference server exited (${code})`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    pid: child.pid,
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          fs.rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
