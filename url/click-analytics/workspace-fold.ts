import { analytics } from "~encore/clients";
import { urlConfig } from "../config/url-config";
import { db } from "../db";
import { FoldTrigger } from "./fold-trigger";

/**
 * This instance's fold of the workspaces' recent click rows: armed by the flushes that add to
 * them (store.ts), run by the analytics service, which keeps the workspaces' hours and days
 * (analytics/compact-workspace-clicks.ts).
 */
export const workspaceFold = new FoldTrigger(urlConfig.workspaceFoldDelayMs, () => analytics.compactWorkspaceClicks());

/**
 * Arms the fold when rows are waiting from before this start: a process stopped, or killed,
 * between its flush and its fold. One statement at start, none after.
 */
export async function foldLeftRows(): Promise<void> {
  const row = await db.queryRow<{ waiting: boolean }>`SELECT EXISTS (SELECT 1 FROM workspace_clicks_recent) AS waiting`;
  if (row?.waiting) workspaceFold.due();
}
