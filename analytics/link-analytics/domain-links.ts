import { APIError } from "encore.dev/api";
import { requireWorkspaceReader } from "./workspace-reader";
import { urlDb } from "../url-db";

/**
 * The custom domain `host` of the workspace (as stored: lower case), when `userID` may read
 * it (any member): 404 "workspace not found" for a workspace they are not in, 404 "domain not
 * found" for a host it has not. The role is asked at every read, as for a tag's analytics.
 */
export async function readableDomain(workspaceId: string, host: string, userID: string): Promise<string> {
  await requireWorkspaceReader(workspaceId, userID);
  const row = await urlDb.queryRow<{ host: string }>`SELECT host FROM domains WHERE host = ${host.toLowerCase()} AND workspace_id = ${workspaceId}`;
  if (row === null) throw APIError.notFound("domain not found");
  return row.host;
}

/**
 * The codes of the domain's links, deleted and disabled ones included (their clicks
 * happened, as a tag's analytics count them), from urls_domain_idx. A link's domain never
 * changes, so these are every link that ever answered on it.
 */
export async function codesOfDomain(host: string): Promise<string[]> {
  const rows = await urlDb.queryAll<{ code: string }>`SELECT code FROM urls WHERE domain = ${host}`;
  return rows.map((r) => r.code);
}
