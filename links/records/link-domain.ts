import { APIError } from "encore.dev/api";
import { db } from "../db";

/** The verified domain `host` of the workspace, for a link made on it; 400 naming `domain` otherwise. */
export async function verifiedDomainFor(workspaceId: string | null, host: string): Promise<string> {
  const lower = host.trim().toLowerCase();
  const row =
    workspaceId === null
      ? null
      : await db.rawQueryRow<{ host: string }>(
          `SELECT host FROM domains WHERE workspace_id = $1 AND host = $2 AND verified_at IS NOT NULL`,
          workspaceId,
          lower,
        );
  if (row === null) throw APIError.invalidArgument(`domain "${host}" is not a verified domain of the link's workspace`);
  return row.host;
}
