import { setImmediate as nextTurn } from "node:timers/promises";
import type { Row, SqlConnection, SqlDriver, SqlTransaction } from "./driver.ts";

/**
 * Wraps a driver so that closing it first waits for work in progress: queries,
 * open transactions and acquired connections, and work chained on them (a click
 * flush that a shutdown signal started must land before the pool closes).
 */
export function trackInFlight(driver: SqlDriver): SqlDriver {
  const active = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    active.add(work);
    const untrack = () => active.delete(work);
    work.then(untrack, untrack);
    return work;
  };
  // A transaction or connection counts as in progress until it is finished.
  const holdUntil = () => {
    let release!: () => void;
    track(new Promise<void>((r) => (release = r)));
    return <T>(finish: Promise<T>) => finish.finally(release);
  };

  return {
    query: (text, params): Promise<Row[]> => track(driver.query(text, params)),
    execScript: (sql) => track(driver.execScript(sql)),
    begin: async (): Promise<SqlTransaction> => {
      const tx = await track(driver.begin());
      const finished = holdUntil();
      return {
        query: (text, params) => tx.query(text, params),
        execScript: (sql) => tx.execScript(sql),
        commit: () => finished(tx.commit()),
        rollback: () => finished(tx.rollback()),
      };
    },
    acquire: async (): Promise<SqlConnection> => {
      const conn = await track(driver.acquire());
      const finished = holdUntil();
      return {
        query: (text, params) => conn.query(text, params),
        execScript: (sql) => conn.execScript(sql),
        queryTable: (text) => conn.queryTable(text),
        release: () => finished(conn.release()),
      };
    },
    close: async () => {
      // Settle, then give chained continuations a turn to start more work, until quiet.
      while (active.size > 0) {
        await Promise.allSettled(active);
        await nextTurn();
      }
      await driver.close();
    },
    ...(driver.poolStats ? { poolStats: () => driver.poolStats!() } : {}),
  };
}
