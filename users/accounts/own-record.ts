import { APIError } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { userStore } from "./user-store";

/**
 * The id of the account a request under /users/:id may act on: the caller's own.
 * Another account's id is 403 permission_denied; an id of no account (a malformed
 * one included) is 404 not_found. Ids are random UUIDs, so telling those two apart
 * gives away nothing a caller could use to find accounts.
 *
 * The caller's own id is returned without a query: the endpoint's own query tells
 * whether that account still exists.
 */
export async function ownRecordId(id: string): Promise<string> {
  const caller = getAuthData()!; // the endpoints are auth: true, so the runtime only calls them signed in
  const normalized = id.toLowerCase(); // a UUID in upper case is the same id
  if (normalized === caller.userID) return normalized;
  if (!(await userStore.exists(normalized))) throw userNotFound();
  throw APIError.permissionDenied("you may only act on your own account");
}

export const userNotFound = () => APIError.notFound("user not found");
