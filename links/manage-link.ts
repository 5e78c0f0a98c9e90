import { api } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { applyChanges, checkChanges, type LinkChangeFields } from "./records/link-changes";
import { removeQrImage, retireLink } from "./records/link-deletion";
import { linkRow } from "./records/link-reads";
import { exactClicks } from "./records/exact-clicks";
import { linkView, toLink, type Link } from "./records/link-rows";
import { changeableLink, deletableLink, readableLink } from "./records/owner";
import { linkUrls, refuseBannedHosts } from "./moderation/host-check";
import { requireScope } from "../access/scopes";
import { withRuleIds } from "./records/redirect-rules";
import { storedRules } from "../link-rules/redirect-rules";
import { changedPreview, type PreviewFetch, type StoredPreview } from "./previews/preview-fields";
import { fillPreview } from "./previews/fetch-preview";

// One link, by the members of its workspace: any member reads it, owners, admins and members
// change and delete it (access/workspace-roles.ts). Another account's link is 403
// permission_denied; a code no link has, or a link of a team workspace the caller is not
// in, 404 "url not found".

interface LinkParams {
  /** The link's code, exactly as answered. */
  code: string;
}

/**
 * The caller's link by its code, deleted ones too (status deleted), so their clicks stay
 * readable. Read-only: it publishes nothing.
 */
export const getLink = api(
  { expose: true, auth: true, method: "GET", path: "/links/:code" },
  async ({ code }: LinkParams): Promise<Link> => {
    requireScope("links:read");
    return readOwnLink(code, getAuthData()!.userID);
  },
);

export interface UpdateLinkRequest extends LinkParams, LinkChangeFields {}

/** The link as changed; with fetchPreview, whether the page filled its preview, or why not. */
export interface UpdatedLink extends Link {
  previewFetch?: PreviewFetch;
}

/**
 * Changes the caller's link: any of url, expiresAt, maxClicks, password, title,
 * description, tags, rules, and how it redirects (redirectType, forwardQuery, startsAt,
 * fallbackUrl, allowIndexing) (null clears, or restores the default), checked as POST /shorten checks them; answers the link as
 * changed. A deleted link is 404 "link deleted"; one a moderator disabled is 400
 * failed_precondition. Every instance stops answering from its cache at once (see
 * links/link-changes.ts). Publishes nothing.
 */
export const updateLink = api(
  { expose: true, auth: true, method: "PATCH", path: "/links/:code" },
  async ({ code, ...fields }: UpdateLinkRequest): Promise<UpdatedLink> => {
    requireScope("links:write");
    const userID = getAuthData()!.userID;
    const changes = checkChanges(fields, linkView().baseUrl);
    await refuseBannedHosts(linkUrls(changes.url, changes.fallbackUrl, changes.rules));
    const link = await changeableLink(await linkRow(code), userID);
    // Rules sent with the ids the link has keep them, and their clicks.
    if (changes.rules) changes.rules = withRuleIds(changes.rules, new Set(storedRules(link.redirect_rules).map((r) => r.id)));
    let preview: StoredPreview | undefined;
    let previewFetch: PreviewFetch | undefined;
    if (changes.preview !== undefined || changes.fetchPreview === true) {
      preview = changedPreview({ title: link.preview_title, description: link.preview_description, image: link.preview_image }, changes.preview);
      if (changes.fetchPreview === true) ({ preview, fetch: previewFetch } = await fillPreview(changes.url ?? link.original_url, preview));
    }
    // Deleted or disabled since it was read: the second read says which.
    if (!(await applyChanges(code, link.workspace_id!, changes, preview))) await changeableLink(await linkRow(code), userID);
    const changed: UpdatedLink = await readOwnLink(code, userID);
    if (previewFetch !== undefined) changed.previewFetch = previewFetch;
    return changed;
  },
);

/**
 * Deletes the caller's link (the row stays, marked deleted; its code is never handed out
 * again) and removes its QR image. GET /:code stops redirecting on every instance at once.
 * Deleting it again is 404 "link deleted". Publishes nothing.
 */
export const deleteLink = api(
  { expose: true, auth: true, method: "DELETE", path: "/links/:code" },
  async ({ code }: LinkParams): Promise<void> => {
    requireScope("links:write");
    const userID = getAuthData()!.userID;
    const link = await deletableLink(await linkRow(code), userID);
    // Deleted meanwhile by another request: the second read says so.
    if (!(await retireLink(code, link.workspace_id!))) await deletableLink(await linkRow(code), userID);
    await removeQrImage(code);
  },
);

/** With its clicks exact, as stats counts them (exact-clicks.ts). */
async function readOwnLink(code: string, userID: string): Promise<Link> {
  const view = linkView();
  const row = await readableLink(await linkRow(code), userID);
  return toLink(row, (await exactClicks([row])).get(row.code)!, view);
}
