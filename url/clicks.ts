import { ClickCounter } from "./click-counter";
import { urlConfig } from "./config";
import { db } from "./db";

/** This instance's click counter, writing to the urls table. */
export const clickCounter = new ClickCounter(async (codes, counts) => {
  await db.exec`
    UPDATE urls SET clicks = urls.clicks + v.n
    FROM unnest(${codes}::text[], ${counts}::int[]) AS v(code, n)
    WHERE urls.code = v.code`;
}, urlConfig.clickFlushIntervalMs);

// On a stop signal, write what is counted and count the rest synchronously. The
// write starts now, before the runtime closes the database (it waits for queries
// in progress), and lookups still draining write their own click before answering.
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => void clickCounter.stop().catch(() => {}));
}
