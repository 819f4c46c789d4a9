/**
 * One POST of a delivery: through the address guard, over kept-alive connections, with one deadline for the whole
 * exchange, keeping at most the first 2 KB of the answer for the console. Redirects are not followed (a 3xx is a
 * failure, as a receiver that moved must be given its new URL).
 */
import http from 'node:http';
import https from 'node:https';
import { BlockedFetchError, guardedLookup, refusedLiteral } from '../../net/safe-fetch.js';

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

/** An endpoint's connections are closed after it has sent nothing for this long. */
const IDLE_AGENT_MS = 5 * 60_000;

/**
 * Sends deliveries, each endpoint over connections of its own: endpoints on one host (a receiver behind one name, with
 * a path each) never wait for each other's sockets, so a slow endpoint holds up no other.
 */
export class WebhookSender {
  private readonly agents = new Map<string, { agent: http.Agent | https.Agent; used: number }>();
  private readonly lookup;
  private readonly sweep: NodeJS.Timeout;

  /** `accept`: the addresses a delivery may connect to, checked on the address itself (a name's answers, or a literal). */
  constructor(
    private readonly accept: (address: string) => boolean,
    private readonly timeoutMs: number,
    private readonly socketsPerEndpoint: number,
  ) {
    this.lookup = guardedLookup(accept);
    this.sweep = setInterval(() => {
      const now = Date.now();
      for (const [key, { agent, used }] of this.agents) {
        if (now - used > IDLE_AGENT_MS) {
          agent.destroy();
          this.agents.delete(key);
        }
      }
    }, 60_000);
    this.sweep.unref();
  }

  private agentFor(endpointId: string, secure: boolean): http.Agent | https.Agent {
    const key = `${endpointId} ${secure ? 'https' : 'http'}`;
    let entry = this.agents.get(key);
    if (!entry) {
      const options = { keepAlive: true, maxSockets: this.socketsPerEndpoint, keepAliveMsecs: 1_000 };
      entry = { agent: secure ? new https.Agent(options) : new http.Agent(options), used: 0 };
      this.agents.set(key, entry);
    }
    entry.used = Date.now();
    return entry.agent;
  }

  send(endpointId: string, target: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const url = new URL(target);
    const literal = refusedLiteral(url, this.accept);
    if (literal !== null) {
      return Promise.resolve({
        status: null,
        error: `${literal} is not an address webhooks may be sent to`,
        responseBody: null,
        durationMs: 0,
      });
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
      const secure = url.protocol === 'https:';
      const payload = Buffer.from(body, 'utf8');
      const request = (secure ? https : http).request(
        url,
        {
          method: 'POST',
          agent: this.agentFor(endpointId, secure),
          lookup: this.lookup,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': String(payload.length),
            'user-agent': 'SvcWebhooks/1.0',
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            if (size < KEPT_BYTES) chunks.push(chunk);
            size += chunk.length;
            if (size > DRAINED_BYTES) response.destroy();
          });
          const done = () =>
            finish({
              status: response.statusCode ?? null,
              error: null,
              responseBody: Buffer.concat(chunks).subarray(0, KEPT_BYTES).toString('utf8'),
            });
          response.on('end', done);
          response.on('close', done);
          response.on('error', done);
        },
      );
      const timer: NodeJS.Timeout = setTimeout(() => {
        request.destroy();
        finish({ status: null, error: `no answer within ${this.timeoutMs} ms`, responseBody: null });
      }, this.timeoutMs);
      request.on('error', (err: NodeJS.ErrnoException) =>
        finish({ status: null, error: errorText(err, url.hostname), responseBody: null }),
      );
      request.end(payload);
    });
  }

  close(): void {
    clearInterval(this.sweep);
    for (const { agent } of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

/** Lookup failures of a name: it has no address the resolver gives (or none it gives now). */
const UNRESOLVED = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NODATA', 'EAI_NONAME', 'EAI_FAIL']);

/**
 * What an attempt's record says of a connection that failed. A name with no address and a name with only addresses
 * webhooks may not reach get one message: telling them apart would let a builder map the service's internal names.
 */
function errorText(err: NodeJS.ErrnoException, hostname: string): string {
  if (err instanceof BlockedFetchError || (err.code !== undefined && UNRESOLVED.has(err.code)))
    return `${hostname} does not resolve to a public address`;
  return err.code ? `${err.code}: ${err.message}` : err.message;
}
