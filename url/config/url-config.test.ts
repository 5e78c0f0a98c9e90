import path from "node:path";
import { describe, expect, test } from "vitest";
import { parseUrlConfig } from "./url-config";

describe("url service configuration", () => {
  test("defaults: a 100,000-entry cache, 128 reads of uncached links at once, clicks written every 100 ms with a 5 s limit, the journal under .data, workspaces' clicks folded 5 minutes after a flush", () => {
    expect(parseUrlConfig({})).toEqual({
      cacheSize: 100_000,
      lookupReadsAtOnce: 128,
      clickFlushIntervalMs: 100,
      clickWriteTimeoutMs: 5000,
      clickJournalDir: path.resolve(".data/click-journal"),
      workspaceFoldDelayMs: 300_000,
      trustProxy: false,
    });
  });

  test("the click journal lives under DATA_DIR when that is set, or where CLICK_JOURNAL_DIR says", () => {
    expect(parseUrlConfig({ DATA_DIR: "/srv/app-data" }).clickJournalDir).toBe("/srv/app-data/click-journal");
    expect(parseUrlConfig({ DATA_DIR: "/srv/app-data", CLICK_JOURNAL_DIR: "journal" }).clickJournalDir).toBe(path.resolve("journal"));
  });

  test("TRUST_PROXY is read as the runtime reads it", () => {
    expect(parseUrlConfig({ TRUST_PROXY: "on" }).trustProxy).toBe(true);
    expect(() => parseUrlConfig({ TRUST_PROXY: "yes" })).toThrow(/invalid configuration: TRUST_PROXY must be on or off/);
  });

  test("LOOKUP_READS_AT_ONCE is a whole number from 1", () => {
    expect(parseUrlConfig({ LOOKUP_READS_AT_ONCE: "1" }).lookupReadsAtOnce).toBe(1);
    for (const bad of ["0", "-3", "1.5", "lots"]) {
      expect(() => parseUrlConfig({ LOOKUP_READS_AT_ONCE: bad })).toThrow(/LOOKUP_READS_AT_ONCE/);
    }
  });

  test("0 selects a write per click", () => {
    expect(parseUrlConfig({ CLICK_FLUSH_INTERVAL_MS: "0" }).clickFlushIntervalMs).toBe(0);
  });

  test("the longest interval Node's timers can wait is accepted", () => {
    expect(parseUrlConfig({ CLICK_FLUSH_INTERVAL_MS: "2147483647" }).clickFlushIntervalMs).toBe(2_147_483_647);
  });

  test.each([
    ["URL_CACHE_SIZE", "0"],
    ["URL_CACHE_SIZE", "lots"],
    ["CLICK_FLUSH_INTERVAL_MS", "-5"],
    ["CLICK_FLUSH_INTERVAL_MS", "1.5"],
    ["CLICK_FLUSH_INTERVAL_MS", "2147483648"],
    ["CLICK_WRITE_TIMEOUT_MS", "50"],
    ["WORKSPACE_CLICKS_FOLD_DELAY_MS", "-1"],
    ["WORKSPACE_CLICKS_FOLD_DELAY_MS", "2147483648"],
  ])("a bad %s (%s) is an error naming it", (name, value) => {
    expect(() => parseUrlConfig({ [name]: value })).toThrowError(new RegExp(`^invalid configuration: ${name} `));
  });
});
