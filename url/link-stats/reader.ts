import { cargo } from "async";
import { APIError } from "encore.dev/api";
import { LRUCache } from "lru-cache";
import type { ClickCounter } from "../../click-counter/counter";
import { db } from "../db";

/** A link as GET /:code/stats shows it, clicks being stored plus pending. */
export interface LinkStats {
  readonly originalUrl: string;
  readonly clicks: number;
  readonly createdAt: Date;
  /** The workspace whose members see it without its password; null for an anonymous link. */
  readonly workspaceId: string | null;
  readonly passwordHash: string | null;
}

/**
 * What never changes about a stored link: its row id tells a link from a later one under the
 * same code. Its URL is not among them: the owner may change it (PATCH /links/:code).
 */
interface LinkFacts {
  readonly id: number;
  readonly createdAt: Date;
}

/** Links whose facts are kept between reads: as many as the lookup cache holds by default. */
export const defaultFactsCacheSize = 100_000;

/** Upper bound on codes per SELECT. */
const maxBatch = 500;
/** Upper bound on reads waiting for the next SELECT: past it, a read is refused at once rather than queued. */
export const defaultMaxWaiting = 2000;

/**
 * Reads links' stats with group commit, as UrlStore writes: reads that arrive
 * while a SELECT is running go together in the next `WHERE code = ANY(...)`, so
 * under load one round trip answers many requests, and under none there is no
 * added delay. A read never joins a SELECT that has already started: that SELECT
 * could predate a flush committed after the read arrived, and miss its clicks.
 * Each SELECT runs inside the counter's consistentRead, so stored + pending is
 * exact (see ClickCounter). The queue is bounded: a read past `maxWaiting` gets
 * 503 `unavailable` at once, and the database's slowness never turns into an
 * ever-longer queue in memory.
 */
export class StatsReader {
  /** The codes waiting to be read; the worker is the SELECT of one batch. */
  readonly #queue = cargo<string>(async (codes: string[]) => this.counter.consistentRead(() => this.select(codes)), maxBatch);
  readonly #facts: LRUCache<string, LinkFacts>;

  constructor(
    private readonly counter: ClickCounter,
    private readonly maxWaiting = defaultMaxWaiting,
    factsCacheSize = defaultFactsCacheSize,
  ) {
    this.#facts = new LRUCache({ max: factsCacheSize });
  }

  /** The code's stats, or undefined when there is no such link, or it is deleted or disabled. */
  async read(code: string): Promise<LinkStats | undefined> {
    // length(): the reads waiting, not those of the SELECT running.
    if (this.#queue.length() >= this.maxWaiting) {
      throw APIError.unavailable("too many stats reads waiting; try again");
    }
    const found = await this.#queue.pushAsync<ReadonlyMap<string, LinkStats>>(code);
    return found.get(code);
  }

  /**
   * One SELECT for the batch. A link's creation time never changes, so it is kept here after
   * its first read and not fetched (nor parsed: a timestamp costs more to parse than the
   * rest of the row) again while the row found still has the id it came from; a link
   * deleted and made again under the same code has a new id, and is read afresh.
   *
   * Whether the link is deleted or disabled is selected rather than put in the join's
   * condition, so the join and its plan stay what they were before links could be deleted:
   * by code alone, along the code's index.
   */
  private async select(batch: readonly string[]): Promise<Map<string, LinkStats>> {
    const codes = [...new Set(batch)];
    // Taken now: an entry the loop below evicts to make room must still answer this batch.
    const known = new Map(codes.map((code) => [code, this.#facts.get(code)]));
    const knownIds = codes.map((code) => known.get(code)?.id ?? 0);
    const rows = await db.queryAll<{
      code: string;
      id: number;
      clicks: number;
      original_url: string;
      workspace_id: string | null;
      password_hash: string | null;
      gone: boolean;
      created_ms: number | null;
    }>`
      SELECT u.code, u.id, u.clicks, u.original_url, u.workspace_id, u.password_hash,
        u.deleted_at IS NOT NULL OR u.disabled_at IS NOT NULL AS gone,
        CASE WHEN u.id = k.known_id THEN NULL ELSE (extract(epoch FROM u.created_at) * 1000)::float8 END AS created_ms
      FROM unnest(${codes}::text[], ${knownIds}::int[]) AS k(code, known_id)
      JOIN urls u ON u.code = k.code`;
    // No await from here on: pending is read in the same moment as consistentRead checks.
    const found = new Map<string, LinkStats>();
    for (const r of rows) {
      // A deleted or disabled link has no public stats (its owner reads them through GET /links/:code).
      if (r.gone) continue;
      let facts = known.get(r.code);
      if (facts?.id !== r.id) {
        facts = { id: r.id, createdAt: new Date(r.created_ms!) };
        this.#facts.set(r.code, facts);
      }
      found.set(r.code, {
        originalUrl: r.original_url,
        clicks: r.clicks + this.counter.pending(r.code),
        createdAt: facts.createdAt,
        workspaceId: r.workspace_id,
        passwordHash: r.password_hash,
      });
    }
    return found;
  }
}
