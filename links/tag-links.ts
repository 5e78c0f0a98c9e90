import { api, APIError } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { keyWorkspace, requireScope } from "../access/scopes";
import { workspaceAllowing } from "./records/workspace-access";
import { tagLinks, type BulkTagged } from "./tagging/link-tags";
import { checkTagNames, tagKey } from "./tagging/names";

/** Links one request may tag: as many as POST /links/bulk makes. */
export const maxTaggedLinks = 1000;

export interface TagLinksRequest {
  /** The workspace the links are in, one the caller may write to; by default their personal one. */
  workspaceId?: string;
  /** 1 to 1000 codes of its links, exactly as answered. */
  codes: string[];
  /** Tags to put on every one of them (made when the workspace has none by the name, in any case); at most 20. */
  add?: string[];
  /** Tags to take off every one of them; names no tag has are ignored; at most 20. */
  remove?: string[];
}

/**
 * Puts tags on, and takes tags off, up to 1000 of a workspace's links at once: all or
 * nothing, in a few statements whatever the number of links (tagging/link-tags.ts). A code
 * that is no link of the workspace, or a deleted one, is 404 naming it (in
 * `details.codes` too), and nothing changes; a link that would have more than 20 tags is
 * 400. Publishes nothing.
 */
export const tagLinksInBulk = api(
  // The body of 1000 codes of up to 64 characters fits in the default 2 MiB.
  { expose: true, auth: true, method: "POST", path: "/links/tags" },
  async ({ workspaceId, codes, add = [], remove = [] }: TagLinksRequest): Promise<BulkTagged> => {
    requireScope("links:write");
    const userID = getAuthData()!.userID;
    if (!Array.isArray(codes) || codes.length < 1 || codes.length > maxTaggedLinks) {
      throw APIError.invalidArgument(`codes must hold 1 to ${maxTaggedLinks} codes, got ${Array.isArray(codes) ? codes.length : "none"}`);
    }
    if (codes.some((code) => typeof code !== "string" || code.length === 0 || code.length > 64)) {
      throw APIError.invalidArgument("codes must be links' codes (1 to 64 characters each)");
    }
    const adding = checkTagNames(add, "add");
    const removing = checkTagNames(remove, "remove");
    if (adding.length + removing.length === 0) throw APIError.invalidArgument("nothing to change: name tags in add or remove");
    const both = adding.find((name) => removing.some((other) => tagKey(other) === tagKey(name)));
    if (both !== undefined) throw APIError.invalidArgument(`tag "${both}" is in both add and remove`);
    const workspace = workspaceId ?? keyWorkspace() ?? userID;
    await workspaceAllowing(workspace, userID, "write");
    return tagLinks({ workspaceId: workspace, codes, add: adding, remove: removing });
  },
);
