import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A delivery as it arrived: `at` is the wall-clock time (ms) its body had arrived. */
export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}
export type Answer = (
  received: Received,
) => { status: number; delayMs?: number; body?: string } | Promise<{ status: number; delayMs?: number; body?: string }>;

/**
 * A real HTTP server that receives webhook deliveries, keeps each, and answers as the test says (204 until told).
 * The `webhook.ping` every new endpoint sends first is kept apart (`pings`) and answered 204: tests of changes count
 * the changes' deliveries.
 */
export async function startReceiver() {
  const received: Received[] = [];
  const pings: Received[] = [];
  let answer: Answer = () => ({ status: 204 });
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', async () => {
      const one = {
        path: request.url ?? '/',
        headers: request.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      if (one.body.startsWith('{"id":"evt_') && one.body.includes('"type":"webhook.ping"')) {
        pings.push(one);
        response.writeHead(204).end();
        return;
      }
      received.push(one);
      const { status, delayMs, body } = await answer(one);
      setTimeout(() => {
        if (!response.destroyed) response.writeHead(status).end(body ?? (status >= 400 ? 'not now' : 'ok'));
      }, delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: (path = '/hooks') => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    received,
    pings,
    answer: (next: Answer) => {
      answer = next;
    },
    reset: () => {
      received.length = 0;
      pings.length = 0;
      answer = () => ({ status: 204 });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
