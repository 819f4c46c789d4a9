import type { Socket } from 'node:net';
import type { Server } from 'node:http';
import type { FastifyHttpOptions } from 'fastify';
import type { Config } from '../config.js';
import { errorTimestamp } from '../shared/time.js';

/** What Node's HTTP parser refuses before any route runs, as the spec's ErrorResponse (status and message). */
function refusal(err: NodeJS.ErrnoException, limits: Config['http']): [number, string] {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return [408, `The request did not arrive in time: headers within ${limits.headersTimeoutMs} ms, the whole request within ${limits.requestTimeoutMs} ms`];
  }
  if (err.code === 'HPE_HEADER_OVERFLOW') return [431, 'The request headers are larger than the server accepts (16 KiB)'];
  return [400, 'The request is not valid HTTP'];
}

/** Whether the request the parser refused was for /oauth/… (its request line, when the parser had read it). */
function isOAuthRequest(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): boolean {
  const line = err.rawPacket?.subarray(0, 256).toString('latin1').split('\r\n', 1)[0] ?? '';
  return /^[A-Z]+ \/oauth\//.test(line);
}

/**
 * Server options that bound every connection (docs/security.md): headers and the whole request must arrive in
 * time, a silent socket is closed, idle keep-alive connections end, and errors the HTTP parser raises go out
 * in the ErrorResponse body. Node checks the header and request deadlines every `connectionsCheckingInterval`.
 */
export function connectionLimits(limits: Config['http'], clock: () => number): FastifyHttpOptions<Server> {
  return {
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    clientErrorHandler: (err: NodeJS.ErrnoException, socket: Socket) => {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      const [status, message] = refusal(err, limits);
      // The OAuth endpoints answer every error in OAuth's own shape (RFC 6749 5.2), the parser's refusals too.
      const body = JSON.stringify(isOAuthRequest(err)
        ? { error: 'invalid_request', error_description: message }
        : { code: 'C0002', message, timestamp: errorTimestamp(clock()), details: null });
      if (socket.writable) {
        socket.write(`HTTP/1.1 ${status} ${status === 408 ? 'Request Timeout' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n`
          + `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      }
      socket.destroy();
    },
  };
}
