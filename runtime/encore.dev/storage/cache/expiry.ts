/** When a written key expires: use the helpers below to make one. */
export type Expiry =
  | { type: "duration"; durationMs: number }
  | { type: "time"; hours: number; minutes: number; seconds: number }
  | "never"
  | "keep-ttl";

/** Expires `ms` milliseconds after the write. */
export function expireIn(ms: number): Expiry {
  return { type: "duration", durationMs: ms };
}

export function expireInSeconds(seconds: number): Expiry {
  return expireIn(seconds * 1000);
}

export function expireInMinutes(minutes: number): Expiry {
  return expireIn(minutes * 60_000);
}

export function expireInHours(hours: number): Expiry {
  return expireIn(hours * 3_600_000);
}

/** Expires at the next time of day (UTC) given: today if it is still ahead, else tomorrow. */
export function expireDailyAt(hours: number, minutes: number, seconds: number): Expiry {
  return { type: "time", hours, minutes, seconds };
}

/** Never expires (the store may still evict it under its eviction policy). */
export const neverExpire: Expiry = "never";

/** Keeps the key's time to live as it is; a key that did not exist gets none. */
export const keepTTL: Expiry = "keep-ttl";

/** Milliseconds from `now`, "never" or "keep-ttl". */
export function resolveExpiry(expiry: Expiry, now = new Date()): number | "never" | "keep-ttl" {
  if (expiry === "never" || expiry === "keep-ttl") return expiry;
  if (expiry.type === "duration") return expiry.durationMs;
  const at = new Date(now);
  at.setUTCHours(expiry.hours, expiry.minutes, expiry.seconds, 0);
  if (at.getTime() <= now.getTime()) at.setUTCDate(at.getUTCDate() + 1);
  return at.getTime() - now.getTime();
}
