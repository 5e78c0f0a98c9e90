import { timingSafeEqual } from "node:crypto";
import { secret } from "encore.dev/config";

export type Role = "admin" | "member";

export interface TokenOwner {
  userID: string;
  role: Role;
}

// Demo users with fixed tokens, as in Encore's auth examples: enough to try the API
// locally without a login flow. A real app would verify a signed token instead.
const demoTokens: Record<string, TokenOwner> = {
  "demo-token-alice": { userID: "alice", role: "member" },
  "demo-token-bob": { userID: "bob", role: "member" },
};

// The admin's token is a secret, set per environment ("encore secret set AdminToken").
// Unset, it reads as "" in development and tests, and then no token is an admin's.
const adminToken = secret("AdminToken");

function readAdminToken(): string {
  try {
    return adminToken();
  } catch {
    return ""; // unset outside development: nobody is admin, rather than every request failing
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whose token this is, or null when it is nobody's. */
export function ownerOf(token: string): TokenOwner | null {
  const admin = readAdminToken();
  if (admin !== "" && sameText(token, admin)) return { userID: "admin", role: "admin" };
  return Object.hasOwn(demoTokens, token) ? demoTokens[token]! : null;
}
