import { appMeta } from "encore.dev";
import log from "encore.dev/log";
import pLimit from "p-limit";
import { generateCode } from "../../link-rules/codes";
import { passwords } from "../../passwords/passwords";
import { db } from "../db";
import { linksConfig } from "../links-config";
import { qrCodeStored } from "../shortening/fresh-code";
import { routeFirstSegments } from "../shortening/route-segments";
import { liveTagIds } from "../tagging/link-tags";
import { tagKey } from "../tagging/names";
import { ensureTags } from "../tagging/tag-rows";
import { verifiedDomainFor } from "../records/link-domain";
import { checkRow, rowErrorOf, type CheckedRow, type DomainCheck, type ImportRow } from "./rows";

/** What became of one row: its link's code, or why it was not stored. */
export interface ImportRowResult {
  line: number;
  /** The stored link's code (also when an earlier attempt of the same batch stored it). */
  code?: string;
  /** Why the row was not stored, as POST /shorten would have said it. */
  error?: string;
}

/** Who imports, and where. */
export interface ImportTarget {
  readonly importId: string;
  readonly workspaceId: string;
  readonly userID: string;
}

/** Random codes drawn for one row before giving up: as many as shortening/fresh-code.ts tries. */
const maxDraws = 5;

/**
 * Stores the rows of one batch of an import, each whole or not at all: its link, its tags
 * and its mark in imported_links go in one statement. A row an earlier attempt of the
 * same import stored (found by its import and line) is answered with its code and not
 * stored again, so a batch sent twice after a crash makes each link once.
 */
export async function importRows(target: ImportTarget, rows: readonly ImportRow[]): Promise<ImportRowResult[]> {
  const results = new Map<number, ImportRowResult>();
  for (const done of await alreadyStored(target.importId, rows.map((r) => r.line))) results.set(done.line, done);
  const baseUrl = appMeta().apiBaseUrl;
  const now = Date.now();
  const domainOf = domainsOf(target.workspaceId);
  let pending: CheckedRow[] = [];
  for (const row of rows) {
    if (results.has(row.line)) continue;
    try {
      pending.push(await checkRow(row, baseUrl, now, domainOf));
    } catch (err) {
      const message = rowErrorOf(err);
      if (message === null) throw err;
      results.set(row.line, { line: row.line, error: message });
    }
  }
  const tagIds = await tagsOf(target.workspaceId, pending, results);
  pending = pending.filter((row) => !results.has(row.line));
  const hashes = await hashesOf(pending, results);
  pending = pending.filter((row) => !results.has(row.line));
  for (let draw = 0; pending.length > 0; draw++) {
    const codes = await codesFor(pending, draw, results);
    const coded = pending.filter((row) => codes.has(row.line));
    const stored = coded.length === 0 ? new Set<string>() : await insertRows(target, coded, codes, hashes, tagIds);
    const retry: CheckedRow[] = [];
    for (const row of coded) {
      const code = codes.get(row.line)!;
      if (stored.has(code)) results.set(row.line, { line: row.line, code });
      else if (row.alias !== null) results.set(row.line, { line: row.line, error: `alias "${row.alias}" is taken` });
      else if (draw + 1 < maxDraws) retry.push(row);
      else results.set(row.line, { line: row.line, error: `no free short code found in ${maxDraws} attempts` });
    }
    pending = retry;
  }
  return rows.map((row) => results.get(row.line)!);
}

/** The domain check of one batch: each host as a row spells it looked up once, however many rows name it. */
function domainsOf(workspaceId: string): DomainCheck {
  const found = new Map<string, Promise<string>>();
  return (host) => {
    let domain = found.get(host);
    if (domain === undefined) found.set(host, (domain = verifiedDomainFor(workspaceId, host)));
    return domain;
  };
}

async function alreadyStored(importId: string, lines: readonly number[]): Promise<ImportRowResult[]> {
  return db.queryAll<ImportRowResult>`
    SELECT i.line, u.code FROM imported_links i JOIN urls u ON u.id = i.link_id
    WHERE i.import_id = ${importId} AND i.line = ANY(${lines}::int[])`;
}

/** The batch's tags, found or made at once; past the workspace's limit, each row with tags fails with that reason. */
async function tagsOf(workspaceId: string, rows: readonly CheckedRow[], results: Map<number, ImportRowResult>): Promise<Map<string, number>> {
  const names = new Map<string, string>();
  for (const row of rows) for (const name of row.tags) if (!names.has(tagKey(name))) names.set(tagKey(name), name);
  try {
    return await ensureTags(workspaceId, [...names.values()]);
  } catch (err) {
    const message = rowErrorOf(err);
    if (message === null) throw err;
    for (const row of rows) if (row.tags.length > 0) results.set(row.line, { line: row.line, error: message });
    return new Map();
  }
}

/** Passwords in clear hashed one at a time (as POST /links/bulk does), each distinct one once. */
async function hashesOf(rows: readonly CheckedRow[], results: Map<number, ImportRowResult>): Promise<Map<number, string>> {
  const byPassword = new Map<string, string>();
  const hashes = new Map<number, string>();
  for (const row of rows) {
    if (row.passwordHash !== null) hashes.set(row.line, row.passwordHash);
    if (row.password === null) continue;
    try {
      let hash = byPassword.get(row.password);
      if (hash === undefined) byPassword.set(row.password, (hash = await passwords.hash(row.password)));
      hashes.set(row.line, hash);
    } catch (err) {
      const message = rowErrorOf(err);
      if (message === null) throw err;
      results.set(row.line, { line: row.line, error: message });
    }
  }
  return hashes;
}

/**
 * The code each row is tried under: its alias, or a random code (never a route's first
 * segment); one per code in any case, a later row of the batch with an alias taken earlier
 * in it failing. With QR codes on, each code's image is stored first, as when shortening.
 */
async function codesFor(rows: readonly CheckedRow[], draw: number, results: Map<number, ImportRowResult>): Promise<Map<number, string>> {
  const codes = new Map<number, string>();
  const seen = new Set<string>();
  for (const row of rows) {
    let code = row.alias;
    while (code === null || (row.alias === null && (routeFirstSegments.has(code) || seen.has(code.toLowerCase())))) code = generateCode();
    if (seen.has(code.toLowerCase())) {
      results.set(row.line, { line: row.line, error: `alias "${code}" is taken` });
      continue;
    }
    seen.add(code.toLowerCase());
    codes.set(row.line, code);
  }
  if (!linksConfig.qrCodes) return codes;
  const images = pLimit(8);
  await Promise.all(
    [...codes].map(([line, code]) =>
      images(async () => {
        // A random code whose image exists belongs to another link: drawn again. An alias's image is its own.
        const row = rows.find((r) => r.line === line)!;
        if (!(await qrCodeStored(code)) && row.alias === null) codes.delete(line);
      }),
    ),
  );
  if (draw > 0) log.info("import: random codes drawn again", { rows: rows.length, draw });
  return codes;
}

/** One statement: the links, their marks, their tags. Returns the codes stored. */
async function insertRows(
  target: ImportTarget,
  rows: readonly CheckedRow[],
  codes: ReadonlyMap<number, string>,
  hashes: ReadonlyMap<number, string>,
  tagIds: ReadonlyMap<string, number>,
): Promise<Set<string>> {
  const tagged = rows.flatMap((row) => row.tags.map((name) => ({ code: codes.get(row.line)!, tagId: tagIds.get(tagKey(name))! })));
  const stored = await db.rawQueryAll<{ code: string }>(
    `WITH input AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::int[], $7::text[], $8::timestamptz[], $9::int[], $10::int[],
          $16::smallint[], $17::bool[], $18::timestamptz[], $19::text[], $20::bool[], $21::jsonb[], $22::text[], $23::text[], $24::text[], $25::text[])
        AS r(code, original_url, title, description, expires_at, max_clicks, password_hash, created_at, clicks, line,
          redirect_type, forward_query, starts_at, fallback_url, allow_indexing, redirect_rules, preview_title, preview_description, preview_image, domain)
    ), stored AS (
      INSERT INTO urls (code, original_url, created_by, workspace_id, title, description, expires_at, max_clicks, password_hash, created_at, clicks,
        redirect_type, forward_query, starts_at, fallback_url, allow_indexing, redirect_rules, preview_title, preview_description, preview_image, domain)
      SELECT code, original_url, $11, $12, title, description, expires_at, max_clicks, password_hash, COALESCE(created_at, now()), clicks,
        redirect_type, forward_query, starts_at, fallback_url, allow_indexing, redirect_rules, preview_title, preview_description, preview_image, domain
      FROM input
      -- A deleted link's code is never handed out again, even once its row is gone.
      WHERE NOT EXISTS (SELECT 1 FROM retired_codes r WHERE r.code = input.code)
      -- Taken codes, in any case (urls_code_lower_idx).
      ON CONFLICT DO NOTHING
      RETURNING id, code
    ), marked AS (
      INSERT INTO imported_links (import_id, line, link_id)
      SELECT $13, i.line, s.id FROM stored s JOIN input i ON i.code = s.code
    ), tagged AS (
      INSERT INTO link_tags (link_id, tag_id)
      SELECT s.id, p.tag_id FROM stored s JOIN unnest($14::text[], $15::int[]) AS p(code, tag_id) ON p.code = s.code
      WHERE p.tag_id IN ${liveTagIds("$15")}
    )
    SELECT code FROM stored`,
    rows.map((r) => codes.get(r.line)!),
    rows.map((r) => r.target),
    rows.map((r) => r.title),
    rows.map((r) => r.description),
    rows.map((r) => r.expiresAt),
    rows.map((r) => r.maxClicks),
    rows.map((r) => hashes.get(r.line) ?? null),
    rows.map((r) => r.createdAt),
    rows.map((r) => r.clicks),
    rows.map((r) => r.line),
    target.userID,
    target.workspaceId,
    target.importId,
    tagged.map((t) => t.code),
    tagged.map((t) => t.tagId),
    rows.map((r) => r.redirectType),
    rows.map((r) => r.forwardQuery),
    rows.map((r) => r.startsAt),
    rows.map((r) => r.fallbackUrl),
    rows.map((r) => r.allowIndexing),
    rows.map((r) => (r.redirectRules === null ? null : JSON.stringify(r.redirectRules))),
    rows.map((r) => r.preview.title),
    rows.map((r) => r.preview.description),
    rows.map((r) => r.preview.image),
    rows.map((r) => r.domain),
  );
  return new Set(stored.map((r) => r.code));
}
