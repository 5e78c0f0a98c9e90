import type { IncomingMessage } from "node:http";
import { rootLogger } from "../../log/root.ts";

/** At most one line per this long for 503s. */
const unavailableLogIntervalMs = 1000;
let lastUnavailableLine = -Infinity;
let unlogged = 0;

/**
 * Logs a request that failed on the server's side. A 5xx is logged with the error
 * and its stack, as it may be a bug; a 503 is not one: while the database is away,
 * every request that needs it fails alike, thousands a second under load, so they
 * are logged as a warning at most once a second, saying how many went unlogged.
 */
export function logFailure(err: unknown, status: number, req: IncomingMessage, msg: string): void {
  if (status < 500) return;
  if (status !== 503) {
    rootLogger().error({ err, method: req.method, url: req.url }, msg);
    return;
  }
  const now = Date.now();
  if (now - lastUnavailableLine < unavailableLogIntervalMs) {
    unlogged++;
    return;
  }
  rootLogger().warn({ err, method: req.method, url: req.url, unloggedSinceLast: unlogged }, `${msg}: unavailable`);
  lastUnavailableLine = now;
  unlogged = 0;
}
