import { api, APIError } from "encore.dev/api";
import { clickCounter } from "./click-counting/instance";
import { isWellFormedCode } from "./shortening/codes";
import { StatsReader } from "./link-stats/reader";

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
 * one still has its stats.
 */
export const stats = api(
  { expose: true, method: "GET", path: "/:code/stats" },
  async ({ code }: { code: string }): Promise<StatsResponse> => {
    if (!isWellFormedCode(code)) throw APIError.notFound("url not found");
    const link = await reader.read(code);
    if (!link) throw APIError.notFound("url not found");
    return { code, originalUrl: link.originalUrl, clicks: link.clicks, createdAt: link.createdAt };
  },
);
