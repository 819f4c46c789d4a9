/**
 * Statements of a transaction that its writer does not wait for.
 *
 * On PostgreSQL every statement a transaction waits for is a round trip, and under load each round trip is a turn of
 * a busy event loop (tens of milliseconds with the mixed benchmark running). Most statements of a write need no answer before the
 * commit: the log rows for the search index, the data version, the feed's change, the Idempotency-Key's answer. Sent
 * with `sendLater`, a statement is held by its connection and goes with the next statement the transaction waits for
 * (at the latest its COMMIT), all of them written at once and answered together (pg's pipeline mode): one turn for
 * the lot. An error of a held statement fails the statement it went with, so the transaction rolls back as before.
 * On SQLite (and outside a transaction) the statement simply runs now.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Compilable, Kysely } from 'kysely';
import type { DB } from './schema.js';

/** What a statement sent later answers: settled once the statement it went with is answered. */
export interface SentLater<T> {
  readonly answer: Promise<T>;
}

/** Set by a connection that held the statement: the promise of its rows. */
export interface HeldRows {
  rows?: Promise<unknown[]>;
}

/** Marks the one statement run inside as one its transaction does not wait for (read by the PostgreSQL connection). */
export const statementSentLater = new AsyncLocalStorage<HeldRows>();

const settled = <T>(promise: Promise<T>): Promise<T> => {
  // Nobody may be waiting when a held statement fails (its transaction rolled back): no unhandled rejection.
  promise.catch(() => undefined);
  return promise;
};

/** Sends `query`, one statement, without waiting for its answer where its connection can hold it (see above). */
export async function sendLater<R>(db: Kysely<DB>, query: Compilable<R>): Promise<SentLater<R[]>> {
  const held: HeldRows = {};
  const { rows } = await statementSentLater.run(held, () => db.executeQuery(query.compile()));
  return { answer: held.rows ? settled(held.rows as Promise<R[]>) : Promise.resolve(rows) };
}

/** `later`'s answer as `map` makes it. */
export function mapLater<T, U>(later: SentLater<T>, map: (value: T) => U): SentLater<U> {
  return { answer: settled(later.answer.then(map)) };
}
