import { setImmediate as nextTurn } from "node:timers/promises";
import type { Row, SqlConnection, SqlDriver, SqlTransaction } from "./driver.ts";
import { isConnectionFailure } from "./unavailable.ts";

export interface ClosingOptions {
  /**
   * Until when (ms since the epoch) the database stays open for an app that
   * retries queries which could not reach the server; without it, no waiting.
   */
  readonly retryUntil?: number;
}

export interface TrackedDriver extends SqlDriver {
  close(options?: ClosingOptions): Promise<void>;
}

/**
 * How long, after a query failed to reach the server, a closing database waits
 * for the app to try again: longer than an app's usual retry delay (the url
 * service's click writer retries every 100 ms while stopping).
 */
export const retryWindowMs = 1000;

/**
 * Wraps a driver so that closing it first waits for work in progress: queries,
 * open transactions and acquired connections, and work chained on them (a click
 * flush that a shutdown signal started must land before the pool closes).
 *
 * Encore.ts gives apps no shutdown hook, so an app that must not lose a write
 * (answered clicks) can only keep retrying it. Closing therefore also waits while
 * the app retries: when the last query settled failed to reach the server, the
 * database stays open as long as each further attempt comes within retryWindowMs
 * of the last, up to `retryUntil`. A stop with the database healthy waits for
 * nothing more than before; one with the database briefly away gives the app's
 * retries the chance to land.
 */
export function trackInFlight(driver: SqlDriver): TrackedDriver {
  const active = new Set<Promise<unknown>>();
  /** Whether the last query to settle failed for want of a server. */
  let failedToConnect = false;
  /** Called when work starts, while closing waits for a retry. */
  let workStarted: (() => void) | undefined;
  const track = <T>(work: Promise<T>): Promise<T> => {
    active.add(work);
    workStarted?.();
    work.then(
      () => {
        active.delete(work);
        failedToConnect = false;
      },
      (err: unknown) => {
        active.delete(work);
        failedToConnect = isConnectionFailure(err);
      },
    );
    return work;
  };
  /** Resolves true when work starts within `ms`, false otherwise. */
  const workWithin = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        workStarted = undefined;
        resolve(false);
      }, ms);
      workStarted = () => {
        clearTimeout(timer);
        workStarted = undefined;
        resolve(true);
      };
    });
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
    close: async ({ retryUntil }: ClosingOptions = {}) => {
      for (;;) {
        // Settle, then give chained continuations a turn to start more work, until quiet.
        while (active.size > 0) {
          await Promise.allSettled(active);
          await nextTurn();
        }
        if (!failedToConnect || retryUntil === undefined) break;
        const waitMs = Math.min(retryWindowMs, retryUntil - Date.now());
        if (waitMs <= 0 || !(await workWithin(waitMs))) break;
      }
      await driver.close();
    },
    ...(driver.poolStats ? { poolStats: () => driver.poolStats!() } : {}),
  };
}
