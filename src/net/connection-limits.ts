import type { Socket } from 'node:net';
import type { Server } from 'node:http';
import type { FastifyHttpOptions, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { errorTimestamp } from '../shared/time.js';

/** The request line and headers a request may have, in bytes (docs/security.md). */
export const MAX_HEADER_BYTES = 16 * 1024;
/**
 * What Node's parser takes before refusing on its own. Above MAX_HEADER_BYTES so that the refusal of headers over
 * 16 KiB is made with the request line known (headerSizeCheck), whatever the reads the headers arrived in: the
 * parser's own refusal knows only the last read, which need not hold the request line and so the path.
 */
const PARSER_HEADER_BYTES = 64 * 1024;
const TOO_LARGE = `The request headers are larger than the server accepts (${MAX_HEADER_BYTES / 1024} KiB)`;

/** What Node's HTTP parser refuses before any route runs, as the spec's ErrorResponse (status and message). */
function refusal(err: NodeJS.ErrnoException, limits: Config['http']): [number, string] {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return [
      408,
      `The request did not arrive in time: headers within ${limits.headersTimeoutMs} ms, the whole request within ${limits.requestTimeoutMs} ms`,
    ];
  }
  if (err.code === 'HPE_HEADER_OVERFLOW') return [431, TOO_LARGE];
  return [400, 'The request is not valid HTTP'];
}

/** The path of the request the parser refused (its request line, when the parser's last read held it), else ''. */
function refusedPath(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): string {
  const line = err.rawPacket?.subarray(0, 256).toString('latin1').split('\r\n', 1)[0] ?? '';
  return /^[A-Z]+ (\/\S*)/.exec(line)?.[1] ?? '';
}

/**
 * The paths a person's browser opens (the front page, the guides, the language switch, the console, the OAuth sign-in
 * and consent pages): their refusals are pages too, never a JSON body a person would see as text.
 */
const PAGE =
  /^\/(?:$|[?#]|guides(?:[/?#]|$)|language(?:[?#]|$)|console(?:[/?#]|$)|oauth\/(?:authorize|login|logout)(?:[?#]|$))/;

/** What a refused request's body is: a page, OAuth's shape on its endpoints (RFC 6749 5.2), else the ErrorResponse. */
type RefusalShape = 'page' | 'oauth' | 'api';
const shapeOf = (url: string): RefusalShape => (PAGE.test(url) ? 'page' : url.startsWith('/oauth/') ? 'oauth' : 'api');

/** A refusal's body and content type, in the shape of the path it was for. */
function refusalBody(shape: RefusalShape, message: string, now: number): { type: string; body: string } {
  if (shape === 'page')
    return {
      type: 'text/html; charset=utf-8',
      body: `<!doctype html>\n<html lang="en"><meta charset="utf-8"><title>Request refused</title><h1>The request cannot be completed</h1><p>${message}. Clear this site's cookies, or try again with a shorter address.</p></html>\n`,
    };
  return {
    type: 'application/json; charset=utf-8',
    body: JSON.stringify(
      shape === 'oauth'
        ? { error: 'invalid_request', error_description: message }
        : { code: 'C0002', message, timestamp: errorTimestamp(now), details: null },
    ),
  };
}

/**
 * The header limit, on a request the parser took (up to PARSER_HEADER_BYTES): over MAX_HEADER_BYTES it is answered
 * 431 in its endpoint's error shape and its connection closed. Counted as on the wire: the request line, each
 * `name: value` and its line end.
 */
export function headerSizeCheck(clock: () => number) {
  return (request: FastifyRequest, reply: FastifyReply): boolean => {
    const { raw } = request;
    let bytes = raw.method!.length + raw.url!.length + 12;
    const headers = raw.rawHeaders;
    for (let i = 0; i < headers.length; i++) bytes += headers[i]!.length + 2;
    if (bytes <= MAX_HEADER_BYTES) return true;
    const { type, body } = refusalBody(shapeOf(raw.url!), TOO_LARGE, clock());
    void reply.code(431).header('connection', 'close').type(type).send(body);
    return false;
  };
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
      maxHeaderSize: PARSER_HEADER_BYTES,
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    clientErrorHandler: (err: NodeJS.ErrnoException, socket: Socket) => {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      const [status, message] = refusal(err, limits);
      // The OAuth endpoints answer every error in OAuth's own shape (RFC 6749 5.2), pages as pages, the parser's
      // refusals too.
      const { type, body } = refusalBody(shapeOf(refusedPath(err)), message, clock());
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${status} ${status === 408 ? 'Request Timeout' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
            `Content-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy();
    },
  };
}
