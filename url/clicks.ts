import { randomUUID } from "node:crypto";
import log from "encore.dev/log";
import { ClickCounter } from "./click-counting/counter";
import { ClickJournal } from "./click-counting/journal";
import { replayJournals } from "./click-counting/replay";
import { clickWriter, registerWriter } from "./click-counting/store";
import { urlConfig } from "./config";
import { clickFlushes, clickFlushLastSeconds, clickFlushMicroseconds, clicksLost, clicksPending } from "./metrics";

/** This process, as a writer of clicks: its batches are numbered in click_writers under this id. */
const writer = randomUUID();
const journal = new ClickJournal(urlConfig.clickJournalDir, writer);

/** This instance's click counter, writing to the urls table. */
export const clickCounter = new ClickCounter(clickWriter(writer, urlConfig.clickWriteTimeoutMs), urlConfig.clickFlushIntervalMs, journal);

clickCounter.observe({
  flushed(durationMs, ok) {
    clicksPending.set(clickCounter.pendingClicks);
    clickFlushes.with({ outcome: ok ? "written" : "failed" }).increment();
    clickFlushMicroseconds.increment(durationMs * 1000);
    clickFlushLastSeconds.set(durationMs / 1000);
  },
  lost(clicks) {
    clicksLost.increment(clicks);
  },
});

// At start: register this writer (so a journal it may leave is known to belong to
// this database), then store what processes that died during an outage left in
// their journals.
void registerWriter(writer)
  .catch((err: unknown) => log.warn(err, "registering this process as a writer of clicks failed; its first write does it"))
  .then(() =>
    replayJournals({
      dir: urlConfig.clickJournalDir,
      ownPath: journal.path,
      writeTimeoutMs: urlConfig.clickWriteTimeoutMs,
      lost: (clicks) => clicksLost.increment(clicks),
    }),
  )
  .catch((err: unknown) => log.warn(err, "looking for click journals failed", { dir: urlConfig.clickJournalDir }));

// On a stop signal, write what is counted and count the rest synchronously. The
// write starts now, before the runtime closes the database (it waits for queries
// in progress), and lookups still draining write their own click before answering.
// A write the database refuses is retried, on a ref'd timer, for up to 8 s (the
// runtime keeps a database open while a query that failed to connect is retried),
// then the clicks left are kept in the click journal for the next start.
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => void clickCounter.stop());
}
