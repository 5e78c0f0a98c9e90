import { APIError } from "encore.dev/api";
import { randomBytes } from "node:crypto";
import { db } from "../db";
import { checkUrlOf } from "./check";

/** A workspace's custom domain (GET/POST /workspaces/:id/domains). */
export interface Domain {
  /** The DNS name, lower case, an IDN in punycode. */
  host: string;
  /** Whether its check passed: links may be made on it. */
  verified: boolean;
  verifiedAt?: Date;
  /** What `checkUrl` must answer for the check to pass. */
  token: string;
  /** http://<host>/.well-known/url-shortener/<token>: routed to this service, it answers the token. */
  checkUrl: string;
  /** Where GET / on the domain sends visitors; without it, a short page. */
  rootUrl?: string;
  /** Where an unknown code on the domain sends visitors; without it, the 404. */
  notFoundUrl?: string;
  createdAt: Date;
}

interface DomainRow {
  host: string;
  token: string;
  verified_at: Date | null;
  root_url: string | null;
  not_found_url: string | null;
  created_at: Date;
}

function toDomain(row: DomainRow): Domain {
  const domain: Domain = {
    host: row.host,
    verified: row.verified_at !== null,
    token: row.token,
    checkUrl: checkUrlOf(row.host, row.token),
    createdAt: row.created_at,
  };
  if (row.verified_at !== null) domain.verifiedAt = row.verified_at;
  if (row.root_url !== null) domain.rootUrl = row.root_url;
  if (row.not_found_url !== null) domain.notFoundUrl = row.not_found_url;
  return domain;
}

/** 24 random bytes: unguessable, and safe in a path segment. */
function newToken(): string {
  return randomBytes(24).toString("base64url");
}

/** Adds `host` to the workspace, unverified; 409 already_exists when any workspace has it. */
export async function addDomain(workspaceId: string, host: string, createdBy: string): Promise<Domain> {
  const row = await db.rawQueryRow<DomainRow>(
    `INSERT INTO domains (host, workspace_id, token, created_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (host) DO NOTHING
     RETURNING host, token, verified_at, root_url, not_found_url, created_at`,
    host,
    workspaceId,
    newToken(),
    createdBy,
  );
  if (row === null) throw APIError.alreadyExists(`the domain ${host} is taken: a workspace has it`);
  return toDomain(row);
}

export async function domainsOf(workspaceId: string): Promise<Domain[]> {
  const rows = await db.rawQueryAll<DomainRow>(
    `SELECT host, token, verified_at, root_url, not_found_url, created_at FROM domains WHERE workspace_id = $1 ORDER BY host`,
    workspaceId,
  );
  return rows.map(toDomain);
}

/** The workspace's domain `host`; 404 when the workspace has none by that name. */
export async function domainOf(workspaceId: string, host: string): Promise<Domain> {
  const row = await db.rawQueryRow<DomainRow>(
    `SELECT host, token, verified_at, root_url, not_found_url, created_at FROM domains WHERE workspace_id = $1 AND host = $2`,
    workspaceId,
    host.toLowerCase(),
  );
  if (row === null) throw APIError.notFound("domain not found");
  return toDomain(row);
}

/** Marks the domain verified now (kept when it was already). */
export async function markVerified(workspaceId: string, host: string): Promise<Domain> {
  await db.rawExec(
    `UPDATE domains SET verified_at = coalesce(verified_at, now()) WHERE workspace_id = $1 AND host = $2`,
    workspaceId,
    host,
  );
  return domainOf(workspaceId, host);
}

/** Sets the given fields; null clears one, undefined leaves it. */
export async function changeDomain(
  workspaceId: string,
  host: string,
  changes: { rootUrl?: string | null; notFoundUrl?: string | null },
): Promise<Domain> {
  await db.rawExec(
    `UPDATE domains SET
       root_url = CASE WHEN $3 THEN $4 ELSE root_url END,
       not_found_url = CASE WHEN $5 THEN $6 ELSE not_found_url END
     WHERE workspace_id = $1 AND host = $2`,
    workspaceId,
    host,
    changes.rootUrl !== undefined,
    changes.rootUrl ?? null,
    changes.notFoundUrl !== undefined,
    changes.notFoundUrl ?? null,
  );
  return domainOf(workspaceId, host);
}

/**
 * Removes the domain. One any link uses, deleted ones too (their rows stay, and urls.domain
 * restricts the delete), is refused with Encore's code for a state that forbids the call:
 * failed_precondition (400).
 */
export async function removeDomain(workspaceId: string, host: string): Promise<void> {
  await domainOf(workspaceId, host);
  const used = await db.rawQueryRow<{ links: number }>(`SELECT count(*)::int AS links FROM urls WHERE domain = $1`, host);
  if (used !== null && used.links > 0) {
    throw APIError.failedPrecondition(`the domain ${host} has ${used.links} link(s); delete them first`).withDetails({ links: used.links });
  }
  try {
    await db.rawExec(`DELETE FROM domains WHERE workspace_id = $1 AND host = $2`, workspaceId, host);
  } catch (err) {
    // A link made on it since the count: the foreign key refuses.
    if ((err as { code?: string }).code === "23503") throw APIError.failedPrecondition(`the domain ${host} has links; delete them first`);
    throw err;
  }
}
