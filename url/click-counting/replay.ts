import { rm } from "node:fs/promises";
import log from "encore.dev/log";
import { codeOfKey } from "../../click-counter/click-keys";
import { journalsIn, readJournal, type JournalFile } from "../../click-counter/journal";
import { isRunning, ofAnotherHost } from "../../click-counter/owner";
import { replayBatches } from "./store";

/** First wait before trying again while the database cannot take a replay; doubled up to a minute. */
const firstRetryMs = 1000;
const longestRetryMs = 60_000;

export interface ReplayOptions {
  /** The folder of journals (CLICK_JOURNAL_DIR). */
  readonly dir: string;
  /** This process's own journal, never replayed by it. */
  readonly ownPath: string;
  /** The server-side limits of each replay's transaction. */
  readonly writeTimeoutMs: number;
  /** Told of clicks a replay could not store: their links are gone. */
  readonly lost?: (clicks: number) => void;
}

/**
 * Stores the clicks in journals that processes left behind when they died during a
 * database outage (a SIGKILL, a crash, or a stop past its deadline), then removes
 * the journals. A journal whose process still runs is its own business, and so is one
 * of another host (a container sharing the folder: its pids are not this host's); one whose
 * writer this database does not know is left in place (another database's, or
 * replayed already) and logged. While the database cannot take them, it tries again
 * with backoff (1 s, doubling, up to a minute), and stops once every journal is done.
 * Resolves with the clicks stored, after the first pass.
 */
export async function replayJournals(options: ReplayOptions, retryMs = firstRetryMs): Promise<number> {
  let stored = 0;
  let failed = false;
  for (const file of await journalsIn(options.dir)) {
    if (file === options.ownPath) continue;
    let journal: JournalFile;
    try {
      journal = await readJournal(file);
    } catch (err) {
      log.error(err, "a click journal cannot be read: left in place", { path: file });
      continue;
    }
    try {
      stored += await replayOne(journal, options);
    } catch (err) {
      failed = true;
      log.warn(err, "replaying a click journal failed; trying again later", { path: file, inMs: retryMs });
    }
  }
  if (failed) {
    setTimeout(() => void replayJournals(options, Math.min(retryMs * 2, longestRetryMs)), retryMs).unref();
  }
  return stored;
}

async function replayOne(journal: JournalFile, options: ReplayOptions): Promise<number> {
  const { writer, owner } = journal.header;
  if (ofAnotherHost(owner)) {
    log.warn("a click journal of another host: left for a process on that host to replay", { path: journal.path, writer, host: owner.host });
    return 0;
  }
  if (isRunning(owner)) return 0;
  const result = await replayBatches(writer, journal.records, options.writeTimeoutMs);
  if (!result) {
    log.warn("a click journal names a writer this database does not know: left in place", { path: journal.path, writer });
    return 0;
  }
  await rm(journal.path, { force: true });
  let stored = 0;
  let lost = 0;
  for (const [key, n] of result.applied) {
    if (result.found.has(codeOfKey(key))) stored += n;
    else lost += n;
  }
  log.info(`stored ${stored} clicks from the journal of a process that stopped during a database outage`, { path: journal.path, writer });
  if (lost > 0) {
    log.error(`${lost} clicks lost: their links were deleted before the clicks were written`, { clicks: lost, path: journal.path });
    options.lost?.(lost);
  }
  return stored;
}
