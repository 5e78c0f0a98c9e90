import { cargo } from "async";
import { db } from "../db";
import { liveTagIds } from "../tagging/link-tags";
import { outboxRelay, type OutboxRow } from "./relay";
import { linkEventData } from "../event-outbox/link-event-data";
import type { RedirectRule } from "../../link-rules/redirect-rules";
import { noPreview, type StoredPreview } from "../previews/preview-fields";

/** What a new link has besides its code and target; null where it has none. */
export interface LinkDetails {
  /** The signed-in user who shortened it. */
  readonly createdBy: string | null;
  /** The workspace it belongs to; null for an anonymous link. */
  readonly workspaceId: string | null;
  readonly title: string | null;
  readonly description: string | null;
  readonly expiresAt: Date | null;
  readonly maxClicks: number | null;
  /** passwords.hash of its password. */
  readonly passwordHash: string | null;
  /** Ids of its workspace's tags it has (tagging/tag-rows.ts made them). */
  readonly tagIds: readonly number[];
  /** How it redirects (records/redirect-options.ts). */
  readonly redirectType: number;
  readonly forwardQuery: boolean;
  readonly startsAt: Date | null;
  readonly fallbackUrl: string | null;
  readonly allowIndexing: boolean;
  /** Its targeting rules, checked (records/redirect-rules.ts); none when left out. */
  readonly redirectRules?: readonly RedirectRule[] | null;
  /** What GET /:code's card shows link-preview bots. */
  readonly preview: StoredPreview;
  /** The verified custom domain it answers on; null or absent: the default host. */
  readonly domain?: string | null;
}

/** An anonymous link with no options. */
export const plainLink: LinkDetails = Object.freeze({
  createdBy: null,
  workspaceId: null,
  title: null,
  description: null,
  expiresAt: null,
  maxClicks: null,
  passwordHash: null,
  tagIds: [],
  redirectType: 302,
  forwardQuery: true,
  startsAt: null,
  fallbackUrl: null,
  allowIndexing: false,
  preview: noPreview,
});

interface PendingInsert {
  readonly code: string;
  readonly url: string;
  readonly details: LinkDetails;
}

/** Upper bound on rows per INSERT, to keep each statement and its parameters small. */
const maxBatch = 500;

/**
 * Stores new short URLs with group commit: inserts that arrive while a write is in
 * progress go together in the next multi-row INSERT. Under no load that is one
 * row and no added delay; under load it is one commit for many requests.
 * Each caller is answered only after its row, and its url-shortened event in the
 * outbox, are committed; the relay publishes the events afterwards. A failed
 * write fails every insert of its batch.
 */
class UrlStore {
  readonly #queue = cargo<PendingInsert>(writeBatch, maxBatch);

  /** Resolves true once stored, false when the code is already taken (in any case) or retired. */
  async insert(code: string, url: string, details: LinkDetails = plainLink): Promise<boolean> {
    const entry: PendingInsert = { code, url, details };
    const stored = await this.#queue.pushAsync<ReadonlySet<PendingInsert>>(entry);
    return stored.has(entry);
  }
}

/** One statement for the batch (rows and their events); returns the entries whose rows were stored. */
async function writeBatch(batch: readonly PendingInsert[]): Promise<ReadonlySet<PendingInsert>> {
  // Two requests drawing the same code in one batch: only the first may claim it.
  const firstByCode = new Map<string, PendingInsert>();
  for (const p of batch) if (!firstByCode.has(p.code)) firstByCode.set(p.code, p);
  const entries = [...firstByCode.values()];
  const details = entries.map((e) => e.details);
  // Each (code, tag id) pair of the batch; only the stored links get theirs.
  const tagged = entries.flatMap((e) => e.details.tagIds.map((tagId) => ({ code: e.code, tagId })));
  const rows = await db.rawQueryAll<OutboxRow>(
    `WITH stored AS (
      INSERT INTO urls (code, original_url, created_by, workspace_id, title, description, expires_at, max_clicks, password_hash,
        redirect_type, forward_query, starts_at, fallback_url, allow_indexing, redirect_rules, preview_title, preview_description, preview_image, domain)
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::int[], $9::text[],
          $12::smallint[], $13::bool[], $14::timestamptz[], $15::text[], $16::bool[], $17::jsonb[], $18::text[], $19::text[], $20::text[], $21::text[])
        AS drawn(code, original_url, created_by, workspace_id, title, description, expires_at, max_clicks, password_hash,
          redirect_type, forward_query, starts_at, fallback_url, allow_indexing, redirect_rules, preview_title, preview_description, preview_image, domain)
      -- A deleted link's code is never drawn again, even once its row is gone.
      WHERE NOT EXISTS (SELECT 1 FROM retired_codes r WHERE r.code = drawn.code)
      -- Taken codes, in any case (urls_code_lower_idx: an alias may differ only in case).
      ON CONFLICT DO NOTHING
      RETURNING *
    ), tagged AS (
      -- In the same statement, so a link is never seen without the tags it was made with;
      -- a tag deleted meanwhile is left out rather than failing the batch (liveTagIds).
      INSERT INTO link_tags (link_id, tag_id)
      SELECT s.id, p.tag_id FROM stored s JOIN unnest($10::text[], $11::int[]) AS p(code, tag_id) ON p.code = s.code
      WHERE p.tag_id IN ${liveTagIds("$11")}
    ), evented AS (
      -- A workspace's new link is told to its webhooks (link-events.ts), committed with it.
      INSERT INTO link_event_outbox (type, workspace_id, data)
      SELECT 'link.created', s.workspace_id, ${linkEventData("s")} FROM stored s WHERE s.workspace_id IS NOT NULL
    )
    INSERT INTO url_shortened_outbox (code, original_url, created_at)
    SELECT code, original_url, created_at FROM stored
    RETURNING id, code, original_url, created_at`,
    entries.map((e) => e.code),
    entries.map((e) => e.url),
    details.map((d) => d.createdBy),
    details.map((d) => d.workspaceId),
    details.map((d) => d.title),
    details.map((d) => d.description),
    details.map((d) => d.expiresAt),
    details.map((d) => d.maxClicks),
    details.map((d) => d.passwordHash),
    tagged.map((t) => t.code),
    tagged.map((t) => t.tagId),
    details.map((d) => d.redirectType),
    details.map((d) => d.forwardQuery),
    details.map((d) => d.startsAt),
    details.map((d) => d.fallbackUrl),
    details.map((d) => d.allowIndexing),
    details.map((d) => (d.redirectRules?.length ? JSON.stringify(d.redirectRules) : null)),
    details.map((d) => d.preview.title),
    details.map((d) => d.preview.description),
    details.map((d) => d.preview.image),
    details.map((d) => d.domain ?? null),
  );
  outboxRelay.relay(rows);
  return new Set(rows.map((r) => firstByCode.get(r.code)!));
}

export const urlStore = new UrlStore();
