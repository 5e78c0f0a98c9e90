import type { SQLDatabase, Transaction } from "encore.dev/storage/sqldb";
import { analyticsReads, analyticsUnavailable } from "./analytics-reads";

/** What a bounded read may run: read-only statements in its transaction. */
export type AnalyticsReader = Pick<Transaction, "queryAll" | "queryRow" | "rawQueryAll">;

/**
 * Runs a read of click analytics so that no visitor's variety, and no flood of reads,
 * costs `db`'s other work (the url database's, whichever service reads it): at most ANALYTICS_READS_AT_ONCE run in this
 * instance (the others wait a second, then 503 with Retry-After), each in a
 * transaction whose statements the server stops after ANALYTICS_READ_TIMEOUT_MS
 * (then 503 with Retry-After, never 500). One connection per read.
 */
export function boundedRead<T>(db: SQLDatabase, read: (tx: AnalyticsReader) => Promise<T>): Promise<T> {
  return analyticsReads.atOnce(async () => {
    await using tx = await db.begin();
    await tx.exec`SELECT set_config('statement_timeout', ${`${analyticsReads.config.timeoutMs}ms`}, true)`;
    try {
      const result = await read(tx);
      await tx.commit();
      return result;
    } catch (err) {
      if (isStatementTimeout(err)) throw analyticsUnavailable(`reading these analytics took longer than ${analyticsReads.config.timeoutMs} ms`, 5);
      throw err;
    }
  });
}

/** Query cancelled by statement_timeout: SQLSTATE 57014, on the error or one it wraps; else PostgreSQL's message. */
function isStatementTimeout(err: unknown): boolean {
  for (let e = err, depth = 0; typeof e === "object" && e !== null && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === "57014") return true;
    if (typeof message === "string" && message.includes("canceling statement due to statement timeout")) return true;
  }
  return false;
}
