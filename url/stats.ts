import { api, APIError } from "encore.dev/api";
import { clickCounter } from "./clicks";
import { isWellFormedCode } from "./codes";
import { db } from "./db";

export interface StatsResponse {
  code: string;
  originalUrl: string;
  /** Stored clicks plus those this instance has answered but not yet written. */
  clicks: number;
  /** When the link was made. */
  createdAt: Date;
}

/** Click statistics for a code. Read-only: it never changes the count. */
export const stats = api(
  { expose: true, method: "GET", path: "/:code/stats" },
  async ({ code }: { code: string }): Promise<StatsResponse> => {
    if (!isWellFormedCode(code)) throw APIError.notFound("url not found");
    return clickCounter.whileSettled(async () => {
      const row = await db.queryRow<{ original_url: string; clicks: number; created_at: Date }>`
        SELECT original_url, clicks, created_at FROM urls WHERE code = ${code}`;
      if (!row) throw APIError.notFound("url not found");
      const clicks = row.clicks + clickCounter.pending(code);
      return { code, originalUrl: row.original_url, clicks, createdAt: row.created_at };
    });
  },
);
