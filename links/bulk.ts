import { api, APIError, type Header } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { addressKey } from "../limits/address";
import { createLinks, maxBulkItems, type BulkResult } from "./records/bulk";
import type { ShortenItem } from "./records/create";
import { requireScope } from "../access/scopes";
import { workspaceForNewLinks } from "./records/workspace-access";

export interface BulkRequest {
  /** 1 to 1000 links, each as POST /shorten's body (its url and options). */
  items: ShortenItem[];
  /** The client's address, for the limits on creating links (see POST /shorten). */
  forwardedFor?: Header<"X-Forwarded-For">;
  /** The workspace every link goes into: one the caller may write to; by default their personal one. */
  workspaceId?: string;
}

export interface BulkResponse {
  /** One per item, in item order: the link made (as POST /shorten answers), or `{error: {code, message}}`. */
  results: BulkResult[];
}

/**
 * Creates up to 1000 links in one request, for the signed-in user. Each item is checked,
 * counted against the link limits (limits/links.ts) and stored on its own, as by POST
 * /shorten: an item refused (a bad URL, a taken alias, a limit reached) gets its error in
 * its result and the others are stored. The stores of the items go together in the group
 * commit's INSERTs.
 *
 * Publishes: a url-shortened event for each link stored, through the outbox (as POST /shorten).
 */
export const bulkShorten = api(
  // sensitive: items may hold links' passwords. Up to 1000 items of a 2048-character URL
  // and a 1000-character description each, in JSON: more than the default 2 MiB.
  { expose: true, auth: true, method: "POST", path: "/links/bulk", sensitive: true, bodyLimit: 8 * 1024 * 1024 },
  async ({ items, forwardedFor, workspaceId }: BulkRequest): Promise<BulkResponse> => {
    requireScope("links:write");
    const user = getAuthData()!; // auth: true, so the runtime only calls this with a signed-in user
    if (items.length < 1 || items.length > maxBulkItems) {
      throw APIError.invalidArgument(`items must hold 1 to ${maxBulkItems} links, got ${items.length}`);
    }
    const workspace = await workspaceForNewLinks(workspaceId, user.userID);
    return { results: await createLinks(items, { address: addressKey(forwardedFor), userID: user.userID }, workspace) };
  },
);
