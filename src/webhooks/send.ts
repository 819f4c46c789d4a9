/**
 * One POST of a delivery: through the address guard, over kept-alive connections, with one deadline for the whole
 * exchange, keeping at most the first 2 KB of the answer for the console. Redirects are not followed (a 3xx is a
 * failure, as a receiver that moved must be given its new URL).
 */
import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';
import { guardedLookup } from '../net/safe-fetch.js';

export interface SendResult {
  /** The receiver's status; null when there was no answer (refused, reset, timed out, blocked). */
  status: number | null;
  error: string | null;
  responseBody: string | null;
  durationMs: number;
}

const KEPT_BYTES = 2_048;
/** Read past this and the connection is closed rather than drained. */
const DRAINED_BYTES = 64 * 1024;

export class WebhookSender {
  private readonly agents: { http: http.Agent; https: https.Agent };
  private readonly lookup;

  /** `accept`: the addresses a delivery may connect to, checked on the address itself (a name's answers, or a literal). */
  constructor(private readonly accept: (address: string) => boolean, private readonly timeoutMs: number, maxSocketsPerHost: number) {
    this.lookup = guardedLookup(accept);
    this.agents = {
      http: new http.Agent({ keepAlive: true, maxSockets: maxSocketsPerHost, keepAliveMsecs: 1_000 }),
      https: new https.Agent({ keepAlive: true, maxSockets: maxSocketsPerHost, keepAliveMsecs: 1_000 }),
    };
  }

  send(target: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    // A literal address is connected to without a lookup: it is checked here.
    const literal = new URL(target).hostname.replace(/^\[|\]$/g, '');
    if (ipaddr.isValid(literal) && !this.accept(literal)) {
      return Promise.resolve({ status: null, error: `${literal} is not an address webhooks may be sent to`, responseBody: null, durationMs: 0 });
    }
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, durationMs: elapsed() });
      };
      const url = new URL(target);
      const secure = url.protocol === 'https:';
      const payload = Buffer.from(body, 'utf8');
      const request = (secure ? https : http).request(url, {
        method: 'POST',
        agent: secure ? this.agents.https : this.agents.http,
        lookup: this.lookup,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(payload.length),
          'user-agent': 'SvcWebhooks/1.0',
        },
      }, (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < KEPT_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size > DRAINED_BYTES) response.destroy();
        });
        const done = () => finish({
          status: response.statusCode ?? null, error: null,
          responseBody: Buffer.concat(chunks).subarray(0, KEPT_BYTES).toString('utf8'),
        });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      });
      const timer: NodeJS.Timeout = setTimeout(() => {
        request.destroy();
        finish({ status: null, error: `no answer within ${this.timeoutMs} ms`, responseBody: null });
      }, this.timeoutMs);
      request.on('error', (err: NodeJS.ErrnoException) => finish({ status: null, error: err.code ? `${err.code}: ${err.message}` : err.message, responseBody: null }));
      request.end(payload);
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
