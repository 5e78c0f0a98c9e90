// The workspaces' recent click rows are folded into their hours on demand: a flush that adds
// to them arms one fold, which runs after its delay with no cron job; an instance whose
// flushes add none arms nothing.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { analytics } from "~encore/clients";
import { describe, expect, test, vi } from "vitest";
import { clickKey } from "../../click-counter/click-keys";
import { encodeDetails, hourOf, type ClickDetails } from "../../visitors/dimensions";
import { clickWriter } from "../click-counting/store";
import { db } from "../db";
import { addBudgetedClick } from "./store";
import { FoldTrigger } from "./fold-trigger";
import { workspaceFold } from "./workspace-fold";
import { flushClicks, insertLinks } from "../../test/support/click-rows";

const chrome: ClickDetails = { hour: hourOf(Date.now()), bot: false, referrer: "t.co", country: "GB", browser: "Chrome", os: "Windows", device: "desktop" };
const key = (code: string) => clickKey(code, encodeDetails(chrome));

describe("the fold of the workspaces' recent clicks", () => {
  // First in the file: the instance's trigger is this process's, armed by what ran before.
  test("this instance arms it when a flush adds a workspace link's clicks, and not for anonymous links' clicks", async () => {
    expect(workspaceFold.pending).toBe(false);
    await insertLinks(null, ["fta01"]);
    await db.exec`UPDATE urls SET max_clicks = 10 WHERE code = 'fta01'`;
    const write = clickWriter(randomUUID(), 5000);
    await write(new Map([[key("fta01"), 3]]), 1, []);
    expect(await addBudgetedClick("fta01", encodeDetails(chrome))).toBe(true);
    expect(workspaceFold.pending).toBe(false);

    await insertLinks("ws-fold-arm", ["fta02"]);
    await write(new Map([[key("fta02"), 1]]), 2, []);
    expect(workspaceFold.pending).toBe(true);
  });

  test("once due, the fold moves a workspace's recent rows into its hours, and nothing is armed after it", async () => {
    await insertLinks("ws-fold-run", ["ftr01", "ftr02"]);
    await flushClicks([
      ["ftr01", chrome, 4],
      ["ftr02", { ...chrome, bot: true, browser: "curl", os: "unknown", device: "bot" }, 2],
    ]);
    const trigger = new FoldTrigger(50, () => analytics.compactWorkspaceClicks());
    trigger.due();
    expect(trigger.pending).toBe(true);
    await vi.waitFor(() => expect(trigger.pending).toBe(false), { timeout: 10_000, interval: 20 });

    expect(await db.queryAll`SELECT * FROM workspace_clicks_recent WHERE workspace_id = 'ws-fold-run'`).toEqual([]);
    const hours = await db.queryAll<{ humans: number; bots: number }>`
      SELECT humans::int, bots::int FROM workspace_clicks_hourly WHERE workspace_id = 'ws-fold-run' AND dimension = 'all'`;
    expect(hours).toEqual([{ humans: 4, bots: 2 }]);
  });

  test("rows added while a fold runs arm the next one, and a fold that fails is tried again", async () => {
    let runs = 0;
    const trigger: FoldTrigger = new FoldTrigger(20, async () => {
      runs++;
      if (runs === 1) trigger.due(); // as a flush during this fold would
      if (runs === 2) throw new Error("the database is away");
    });
    trigger.due();
    trigger.due(); // armed already: still one fold
    await vi.waitFor(() => expect(runs).toBe(3), { timeout: 10_000, interval: 10 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(runs).toBe(3);
    expect(trigger.pending).toBe(false);
  });

  test("runs outside the request whose flush armed it, so it is in no request's trace or logs", async () => {
    const requests = new AsyncLocalStorage<string>();
    let foldSaw: string | undefined = "the fold did not run";
    const trigger = new FoldTrigger(20, async () => {
      foldSaw = requests.getStore();
    });
    requests.run("the request whose click's flush armed the fold", () => trigger.due());
    await vi.waitFor(() => expect(trigger.pending).toBe(false), { timeout: 10_000, interval: 10 });
    expect(foldSaw).toBeUndefined();
  });
});
