import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import type { VersionedData } from '../cache/data-version.js';
import { VersionedCache } from '../cache/versioned-cache.js';
import { etagOf } from './conditional-get.js';
import { addRouteHook } from '../shared/route-hooks.js';

/** What a kept response may be built from: versioned data, or the code catalogs (fixed while the process runs). */
export type RepresentedData = VersionedData | 'codes';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The response is built only from this versioned data (and the time): it may be served again while it stays current. */
    representation?: RepresentedData;
  }
  interface FastifyRequest {
    /** Set by the handler when the response stops being current at a known time (a job opens or closes). */
    representationValidUntil: number;
    /**
     * The data version read before the handler ran (dataVersionOf), under which its response may be kept. The handler
     * reads its data under it too (read after it, that data is at least as new), instead of reading the version again.
     */
    representationVersion: number | null;
  }
}

/** The data version a route marked `representation` reads its answer under: read once, before its handler. */
export function dataVersionOf(request: FastifyRequest): number {
  const version = request.representationVersion;
  if (version === null)
    throw new Error(
      `${request.routeOptions.url} reads versioned data without the representation config that reads its version`,
    );
  return version;
}

/** A response as it was sent: served again byte for byte. */
interface Representation {
  contentType: string;
  etag: string;
  body: Buffer;
}

/** Bytes of response bodies kept; an entry is one response (a page of results, or one post or job). */
const MAX_BYTES = 16 * 1024 * 1024;

/**
 * Public reads served again, byte for byte, while the data they were built from is unchanged: each
 * response of a route marked `representation` is kept under the data version read before its handler
 * ran (any write, on any instance, bumps it in its transaction), the language and the exact URL. A hit
 * costs one version read; nothing is loaded, serialized or hashed again. A response is kept the second time
 * its key is built (seen-before.ts): most URLs of realistic traffic come once. Responses that depend on the
 * caller (a Bearer token makes `owned` personal) are never kept.
 */
export const representationCachePlugin = fp(
  async (app, opts: { versions: Record<RepresentedData, { read(): Promise<number> }>; clock: () => number }) => {
    const kept = new VersionedCache<Representation>(MAX_BYTES, (r) => r.body.length + 100);
    const keyOf = (request: FastifyRequest) => `${request.locale}|${request.url}`;

    app.decorateRequest('representationValidUntil', Number.POSITIVE_INFINITY);
    app.decorateRequest('representationVersion', null);

    // After authentication, limits and validation: a served copy counts like any other response.
    const serveKept =
      (data: { read(): Promise<number> }) =>
      (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
        data
          .read()
          .then((version) => {
            request.representationVersion = version;
            // A Bearer token makes the answer personal: it is read under the version, never served from or kept here.
            if (request.headers.authorization === undefined) {
              const hit = kept.get(version, keyOf(request), opts.clock());
              if (hit) {
                reply.header('ETag', hit.etag).type(hit.contentType).send(hit.body);
                return;
              }
            }
            done();
          })
          .catch(done);
      };

    const keep = (
      request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (err: null, payload: unknown) => void,
    ) => {
      const version = request.representationVersion;
      if (version === null || request.headers.authorization !== undefined) return done(null, payload);
      if (reply.statusCode !== 200 || typeof payload !== 'string') return done(null, payload);
      const copy = kept.offer(
        version,
        keyOf(request),
        () => {
          // Its own allocation: a small `Buffer.from` is a slice of an 8 KB pool slab, and a kept slice would keep its
          // whole slab (and the garbage around it) alive for as long as the response stays cached.
          const body = Buffer.allocUnsafeSlow(Buffer.byteLength(payload));
          body.write(payload);
          return { contentType: String(reply.getHeader('content-type')), etag: etagOf(body), body };
        },
        { validFrom: opts.clock(), validUntil: request.representationValidUntil },
      );
      if (copy === undefined) return done(null, payload);
      reply.header('ETag', copy.etag);
      done(null, copy.body);
    };

    app.addHook('onRoute', (route) => {
      const data = route.config?.representation;
      if (data === undefined) return;
      // HEAD (Fastify's twin of each GET) reads its version and is served from what is kept, but keeps nothing: its
      // answer has no body to keep.
      if (route.method === 'HEAD') addRouteHook(route, 'preHandler', serveKept(opts.versions[data]));
      if (route.method !== 'GET') return;
      addRouteHook(route, 'preHandler', serveKept(opts.versions[data]));
      addRouteHook(route, 'onSend', keep);
    });
  },
  { name: 'representation-cache', dependencies: ['language'] },
);
