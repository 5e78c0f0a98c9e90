import { LRUCache } from "lru-cache";
import type { Unavailable } from "../answer-pages/unavailable";
import { urlConfig } from "../config/url-config";
import { answerHeaders, defaultRedirect, type AnswerHeaders, type RedirectHow } from "./answer-headers";
import type { TargetRule } from "./targeting-rules";
import type { PreviewCard } from "../answer-pages/preview-card";

/** What a lookup answers with, built once per code rather than once per request. */
export interface CachedLink {
  readonly url: string;
  /** `{"url": ...}`, the JSON answer. */
  readonly body: string;
  readonly bodyBytes: number;
  /**
   * What must be checked before the link redirects; undefined for a plain link (no end
   * date, start, click budget, password or targeting rules, neither deleted nor disabled), which is most links:
   * GET /:code then looks at nothing else.
   */
  readonly rules: LinkRules | undefined;
  /** The custom domain it answers on, only there; null: the default host (domains/on-host.ts). */
  readonly domain: string | null;
  /** Its redirect's status, query forwarding and indexing (answer-headers.ts). */
  readonly how: RedirectHow;
  /** The headers of its redirect (Location its url) and of its JSON answer, built with it. */
  readonly headers: AnswerHeaders;
  /** Its preview for link-preview bots (link-answers/preview-card.ts); undefined for most links. */
  readonly preview: PreviewCard | undefined;
}

/** The checks of a link that is not plain, from its row. */
export interface LinkRules {
  /** Deleted or disabled: what it answers from now on (until a change evicts it). */
  readonly gone: Unavailable | null;
  /** Epoch milliseconds from which it answers as expired. */
  readonly expiresAt: number | null;
  readonly maxClicks: number | null;
  readonly passwordHash: string | null;
  /** Epoch milliseconds before which it answers 404 "link not active yet". */
  readonly startsAt: number | null;
  /** Where it redirects once expired or out of clicks (no click counted), instead of its 404. */
  readonly fallback: CachedLink | null;
  /** Its targeting rules, prepared (targeting-rules.ts); null when it has none. */
  readonly targeting: readonly TargetRule<CachedLink>[] | null;
  /**
   * Its click budget was found spent. Only ever set (clicks never go down); a change of
   * max_clicks evicts the code, and the next lookup reads it afresh.
   */
  exhausted: boolean;
}

export function cachedLink(url: string, rules?: LinkRules, how: RedirectHow = defaultRedirect, preview?: PreviewCard, domain: string | null = null): CachedLink {
  const body = JSON.stringify({ url });
  const bodyBytes = Buffer.byteLength(body);
  return { url, body, bodyBytes, rules, how, headers: answerHeaders(url, bodyBytes, how), preview, domain };
}

/** A lookup reading a code's row from the database, to be kept in the cache if nothing evicted the code meanwhile. */
export interface Fill {
  readonly code: string;
  /** False once the code was evicted (or evictions stopped reaching the cache) since the read began. */
  keepable: boolean;
}

/**
 * code → link, bounded, in each instance. A link leaves every instance's cache
 * when its row is deleted or what a lookup answers changes: the database sends
 * the code to every instance (evictions.ts), which calls `evict`.
 *
 * An entry is only kept while evictions reach this cache (`guarded`): a lookup
 * that read the row before a delete committed must not cache the link after the
 * delete's eviction went by, so each read is a `Fill` that any eviction of its
 * code, a `clear` or a lost listener makes unkeepable.
 */
export class LinkCache {
  readonly #lru: LRUCache<string, CachedLink>;
  readonly #fills = new Set<Fill>();
  #guarded = false;

  constructor(max: number) {
    this.#lru = new LRUCache({ max });
  }

  get(code: string): CachedLink | undefined {
    return this.#lru.get(code);
  }

  has(code: string): boolean {
    return this.#lru.has(code);
  }

  /** Whether evictions reach this cache now, so that new entries may be kept. */
  get guarded(): boolean {
    return this.#guarded;
  }

  /** Call before reading `code` from the database; hand the result to `end`. */
  startFill(code: string): Fill {
    const fill = { code, keepable: this.#guarded };
    this.#fills.add(fill);
    return fill;
  }

  /** Ends a read; `link` is cached when the read was not overtaken by an eviction. */
  endFill(fill: Fill, link?: CachedLink): void {
    this.#fills.delete(fill);
    if (link !== undefined && fill.keepable) this.#lru.set(fill.code, link);
  }

  evict(code: string): void {
    this.#lru.delete(code);
    for (const fill of this.#fills) if (fill.code === code) fill.keepable = false;
  }

  /** Drops every entry, and the reads in progress. */
  clear(): void {
    this.#lru.clear();
    for (const fill of this.#fills) fill.keepable = false;
  }

  /**
   * Evictions reach the cache from now on: entries cached before may have missed
   * theirs, so they go. Call once the listener is up.
   */
  guard(): void {
    this.clear();
    this.#guarded = true;
  }

  /** Evictions may be missed from now on: nothing new is kept; what is cached stays until `guard`. */
  unguard(): void {
    this.#guarded = false;
    for (const fill of this.#fills) fill.keepable = false;
  }
}

export const urlCache = new LinkCache(urlConfig.cacheSize);
