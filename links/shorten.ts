import { api, APIError, type Header } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { addressKey } from "../limits/address";
import { linksConfig } from "./links-config";
import { createLink, type ShortenItem, type ShortenResponse } from "./records/create";
import { requireScope } from "../access/scopes";
import { workspaceForNewLinks } from "./records/workspace-access";

export interface ShortenRequest extends ShortenItem {
  /**
   * The client's address, for the limits on creating links. The runtime sets it from the
   * connection, replacing what the client sent, unless it runs behind a trusted proxy
   * (TRUST_PROXY=on), which sets it.
   */
  forwardedFor?: Header<"X-Forwarded-For">;
  /** The workspace the link goes into (signed-in only): one the caller may write to; by default their personal one. */
  workspaceId?: string;
}

/**
 * Stores a URL under a new random 6-character code, or under the alias a signed-in user
 * chose, recording the signed-in user as its creator, with the options asked for (end
 * date, click budget, password, title, description; links/create.ts). Anonymous shortens
 * are allowed unless REQUIRE_LOGIN_TO_SHORTEN=on. Each address and each user may create
 * a limited number of links in a window (limits/links.ts): past it, 429
 * resource_exhausted with details.retryAfterSeconds.
 *
 * Publishes: it stores the link and its url-shortened event in one transaction
 * (outbox/url-store.ts); the outbox relay publishes the event to the url-shortened
 * topic (events.ts) after the commit, without holding the answer up. With QR codes
 * on, the code's image goes to the qr-codes bucket first.
 */
export const shorten = api(
  // sensitive: the request may hold a link's password, which must not reach traces or logs.
  { expose: true, method: "POST", path: "/shorten", sensitive: true },
  async ({ forwardedFor, workspaceId, ...item }: ShortenRequest): Promise<ShortenResponse> => {
    requireScope("links:write");
    const user = getAuthData();
    if (!user && linksConfig.requireLoginToShorten) throw APIError.unauthenticated("sign in to shorten URLs");
    const workspace = await workspaceForNewLinks(workspaceId, user?.userID);
    return createLink(item, { address: addressKey(forwardedFor), userID: user?.userID }, undefined, workspace);
  },
);
