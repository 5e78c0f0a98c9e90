import { randomUUID } from "node:crypto";
import log from "encore.dev/log";
import { ClickCounter } from "../../click-counter/counter";
import { ClickJournal } from "../../click-counter/journal";
import { replayJournals } from "./replay";
import { clickWriter, registerWriter } from "./store";
import { urlConfig } from "../config/url-config";
import { clickFlushes, clickFlushLastSeconds, clickFlushMicroseconds, clicksLost, clicksPending } from "../metrics";

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

/**
 * Starts this instance's click counting; the service's start calls it once. It
 * registers this writer (so a journal it may leave is known to belong to this
 * database), then stores what processes that died during an outage left in their
 * journals, in the background.
 *
 * On a stop signal it writes what is counted and counts the rest synchronously. The
 * write starts then, before the runtime closes the database (it waits for queries
 * in progress), and lookups still draining write their own click before answering.
 * A write the database refuses is retried, on a ref'd timer, for up to 8 s (the
 * runtime keeps a database open while a query that failed to connect is retried),
 * then the clicks left are kept in the click journal for the next start.
 */
export function startClickCounting(): void {
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
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => void clickCounter.stop());
  }
}
