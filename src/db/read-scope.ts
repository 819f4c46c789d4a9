import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What a long read needs to know about the request it serves: whether its client is still there. Search
 * routes run their handler inside a scope (plugins/long-reads.ts); the read pools look at it before a
 * queued read starts, so nobody's capacity goes to an answer nobody will receive.
 */
export interface ReadScope {
  signal: AbortSignal;
}

export const readScope = new AsyncLocalStorage<ReadScope>();

/** Thrown for a read whose client left before it started. */
export class ClientGoneError extends Error {
  constructor() {
    super('The client closed the connection before its read started');
  }
}

/** Thrown for a read that ran past the statement time limit and was stopped. */
export class ReadTimeoutError extends Error {
  constructor(readonly limitMs: number) {
    super(`A search read ran longer than ${limitMs} ms and was stopped`);
  }
}
