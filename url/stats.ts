import { api, APIError, type Header } from "encore.dev/api";
import { callerActingWith } from "../access/scopes";
import { clickCounter } from "./click-counting/instance";
import { requireLinkPassword } from "../link-access/password-links";
import { isWellFormedCode } from "../link-rules/codes";
import { StatsReader } from "./link-stats/reader";
import { readsWithoutPassword } from "./link-stats/workspace-readers";

export interface StatsRequest {
  code: string;
  /** The link's password, for a link that has one (as GET /:code takes it); its workspace's members signed in need none. */
  password?: Header<"X-Link-Password">;
  /**
   * The client's address, for the limit on guessing a link's password. The runtime sets it
   * from the connection, replacing what the client sent, unless it runs behind a trusted
   * proxy (TRUST_PROXY=on), which sets it.
   */
  forwardedFor?: Header<"X-Forwarded-For">;
}

export interface StatsResponse {
  code: string;
  originalUrl: string;
  /** Stored clicks plus those this instance has answered but not yet written. */
  clicks: number;
  /** When the link was made. */
  createdAt: Date;
}

/** Batches concurrent stats reads into one SELECT; exact without holding click writes up. */
const reader = new StatsReader(clickCounter);

/**
 * Click statistics for a code. Read-only: it never changes the count, and publishes nothing.
 * A deleted or disabled link answers 404 as if it had never been; an expired or exhausted
 * one still has its stats. A password link's stats are its workspace's members' (signed in,
 * or by an API key with links:read) and those who give its password: anyone else gets GET /:code's
 * 401 (no password, or a wrong one; wrong ones count towards the same limit on guessing),
 * never its target.
 */
export const stats = api(
  // sensitive: the request may hold a link's password, which must not reach traces or logs.
  { expose: true, method: "GET", path: "/:code/stats", sensitive: true },
  async ({ code, password, forwardedFor }: StatsRequest): Promise<StatsResponse> => {
    if (!isWellFormedCode(code)) throw APIError.notFound("url not found");
    const link = await reader.read(code);
    if (!link) throw APIError.notFound("url not found");
    if (!(await readsWithoutPassword(link, callerActingWith("links:read")))) {
      await requireLinkPassword(code, link, { password, forwardedFor });
    }
    return { code, originalUrl: link.originalUrl, clicks: link.clicks, createdAt: link.createdAt };
  },
);
