import type pg from 'pg';
import { statementSentLater } from './sent-later.js';

/** A statement as a checked-out connection runs it. */
export type RunStatement = (text: string, values?: readonly unknown[]) => Promise<pg.QueryResult>;

interface Held {
  text: string;
  values: readonly unknown[] | undefined;
  settle?: { resolve(rows: unknown[]): void; reject(reason: unknown): void };
}

/** What Kysely gets for a statement held back: no rows, no count (nobody reads them). A fresh object each time, so
 * that no caller can change what another gets. */
function held(): pg.QueryResult {
  return { command: 'HELD', rowCount: 0, rows: [], oid: 0, fields: [] };
}

const BEGIN = /^(begin|start transaction)\b/i;

/**
 * A checked-out connection's statements as Kysely sends them, holding back what a transaction does not wait for
 * (sent-later.ts): its BEGIN, and each statement sent with `sendLater` inside it. The held statements go, in their
 * order, together with the next statement that is waited for, all written at once (the client is in pg's pipeline
 * mode) and answered in one round trip. If one of them fails, that statement's error is the answer (the ones after it
 * fail only because the transaction is aborted; a COMMIT behind them rolls back), and the transaction's own rollback
 * follows. A transaction that rolls back before anything of it reached the server sends nothing at all.
 */
export function holdingStatements(run: RunStatement): RunStatement {
  let inTransaction = false;
  let waiting: Held[] = [];

  return async (text, values) => {
    if (BEGIN.test(text)) {
      inTransaction = true;
      waiting.push({ text, values });
      return held();
    }
    const ends = text === 'commit' || text === 'rollback';
    const later = statementSentLater.getStore();
    if (later && inTransaction && !ends) {
      later.rows = new Promise((resolve, reject) => waiting.push({ text, values, settle: { resolve, reject } }));
      return held();
    }
    if (ends) inTransaction = false;
    if (text === 'rollback' && waiting.length > 0) {
      const nothingSent = BEGIN.test(waiting[0]!.text);
      for (const statement of waiting)
        statement.settle?.reject(new Error('The transaction rolled back before this statement was sent'));
      waiting = [];
      if (nothingSent) return held();
    }
    if (waiting.length === 0) return run(text, values);

    const batch = waiting;
    waiting = [];
    const results = await Promise.allSettled([
      ...batch.map((statement) => run(statement.text, statement.values)),
      run(text, values),
    ]);
    batch.forEach((statement, i) => {
      const result = results[i]!;
      if (result.status === 'fulfilled') statement.settle?.resolve(result.value.rows);
      else statement.settle?.reject(result.reason);
    });
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    return (results[results.length - 1] as PromiseFulfilledResult<pg.QueryResult>).value;
  };
}
