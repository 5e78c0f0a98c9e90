import { APIError, ErrCode } from "encore.dev/api";
import log from "encore.dev/log";
import pLimit from "p-limit";
import type { LinkCreator } from "../../limits/links";
import { passwords } from "../../passwords/passwords";
import { checkTagNames, tagKey } from "../tagging/names";
import { ensureTags } from "../tagging/tag-rows";
import { createLink, type ShortenItem, type ShortenResponse, type TagResolver } from "./create";

/** Items one POST /links/bulk may hold. */
export const maxBulkItems = 1000;

/** An item that was not stored: the error POST /shorten would have answered with. */
export interface BulkItemError {
  error: {
    /** Encore's error code: invalid_argument, unauthenticated, already_exists, resource_exhausted, ... */
    code: string;
    message: string;
  };
}

/** The outcome of one item: the link made, or why not. */
export type BulkResult = ShortenResponse | BulkItemError;

/**
 * Creates each item as POST /shorten would, independently: one refused item does not
 * fail the others, and each counts against the creator's link limits. All are under way
 * at once, so the stores go together in the group commit's multi-row INSERTs (a few
 * round trips for 1,000 items, not 1,000). Answers in item order. The tags the items name
 * are found or made first, all at once (tagsOfOneRequest).
 */
export async function createLinks(items: readonly ShortenItem[], creator: LinkCreator, workspaceId: string | null): Promise<BulkResult[]> {
  const hashPassword = hashesOfOneRequest();
  const tagIdsOf = workspaceId === null ? undefined : await tagsOfOneRequest(items, workspaceId);
  return Promise.all(items.map((item) => createLink(item, creator, hashPassword, workspaceId, tagIdsOf).catch(itemError)));
}

/**
 * The tags of every item of one bulk request, found or made in one transaction rather than
 * one per item. An item whose tags are refused is left out here and gets its error from
 * its own check. A name of an item refused for another reason (a bad URL) still becomes
 * a tag, without links: the tags are made before the items are stored. Past the
 * workspace's limit of tags, the whole request is refused (400 failed_precondition).
 */
async function tagsOfOneRequest(items: readonly ShortenItem[], workspaceId: string): Promise<TagResolver> {
  const names = new Map<string, string>();
  for (const item of items) {
    if (item.tags === undefined) continue;
    let checked: string[];
    try {
      checked = checkTagNames(item.tags);
    } catch {
      continue;
    }
    for (const name of checked) if (!names.has(tagKey(name))) names.set(tagKey(name), name);
  }
  const ids = await ensureTags(workspaceId, [...names.values()]);
  return async (_workspace, wanted) => wanted.map((name) => ids.get(tagKey(name))!);
}

/**
 * Password hashing for one bulk request: one at a time, so a request of many passwords
 * holds one place in the line of new hashes (passwords/scrypt-slots.ts) rather than
 * filling it and getting 503s, and sign-ups keep their turn; and once per distinct password:
 * items given the same password share its hash (and salt). That tells whoever reads the
 * table that those links of one request share a password, which their owner chose
 * together anyway, and saves 0.1 s of scrypt per repeat.
 */
function hashesOfOneRequest(): (password: string) => Promise<string> {
  const oneAtATime = pLimit(1);
  const hashes = new Map<string, Promise<string>>();
  return (password) => {
    let hash = hashes.get(password);
    if (hash === undefined) {
      hash = oneAtATime(() => passwords.hash(password));
      hashes.set(password, hash);
      // A failed hash (the line full) is not kept: a later item with that password tries again.
      hash.catch(() => hashes.delete(password));
    }
    return hash;
  };
}

function itemError(err: unknown): BulkItemError {
  if (err instanceof APIError && err.code !== ErrCode.Internal && err.code !== ErrCode.Unknown) {
    return { error: { code: err.code, message: err.message } };
  }
  log.error(err, "creating a link of a bulk request failed");
  return { error: { code: ErrCode.Internal, message: "an internal error occurred; this link was not stored" } };
}
