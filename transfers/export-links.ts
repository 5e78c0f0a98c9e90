import { api } from "encore.dev/api";
import { once } from "node:events";
import type { ServerResponse } from "node:http";
import { getAuthData } from "~encore/auth";
import { links } from "~encore/clients";
import { requireScope } from "../access/scopes";
import { roleAllowing } from "./access";
import { csvHeader, csvRows, jsonLines } from "./exporting/link-files";
import { choiceOf, downloadHeaders, pathParam, queryOf } from "./raw-http";

/** Links read per page from the links service: the most memory an export holds. */
const pageSize = 1000;

/**
 * GET /workspaces/:id/export?format=csv|json: the workspace's links (not deleted), oldest
 * first, with their tags, options, clicks and status, as a file to download, written page
 * by page as it is read (a workspace of any size never sits in memory). CSV: the columns
 * an import reads, then shortUrl, hasPassword (yes or no: never the password) and status,
 * then the redirect options, domain, preview and rules (JSON text), which an import reads too.
 * JSON: a list, one link per line, as GET /links/:code answers a link; for the workspace's
 * owner and admins a password link carries its stored hash (passwordHash), so that an
 * import elsewhere keeps it protected, for other members only hasPassword. Any member may
 * export (an API key with links:read); 404 outside the workspace. Read-only.
 */
export const exportLinks = api.raw({ expose: true, auth: true, method: "GET", path: "/workspaces/:id/export" }, async (req, res) => {
  requireScope("links:read");
  const workspaceId = pathParam("id");
  const role = await roleAllowing(workspaceId, getAuthData()!.userID, "read", "export its links");
  const format = choiceOf(queryOf(req), "format", ["csv", "json"] as const);
  const withPasswordHash = format === "json" && (role === "owner" || role === "admin");
  // The first page is read before answering, so that a failing dependency is still a 503, not a cut file.
  let page = await links.exportLinks({ workspaceId, after: 0, limit: pageSize, withPasswordHash });
  const day = new Date().toISOString().slice(0, 10);
  res.writeHead(200, downloadHeaders(format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8", `links-${day}.${format}`));
  await write(res, format === "csv" ? csvHeader() : "[\n");
  let first = true;
  for (;;) {
    await write(res, format === "csv" ? csvRows(page.links) : jsonLines(page.links, first));
    first = first && page.links.length === 0;
    if (page.nextAfter === undefined || res.destroyed) break;
    try {
      page = await links.exportLinks({ workspaceId, after: page.nextAfter, limit: pageSize, withPasswordHash });
    } catch (err) {
      // Past the headers: the client sees a cut connection, never a file that looks whole.
      res.destroy(err as Error);
      return;
    }
  }
  res.end(format === "csv" ? "" : "\n]\n");
});

/** Writes with back-pressure: a slow reader holds the export, not memory; a reader gone ends it. */
async function write(res: ServerResponse, text: string): Promise<void> {
  if (text !== "" && !res.write(text)) await Promise.race([once(res, "drain"), once(res, "close")]);
}
