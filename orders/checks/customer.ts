import { APIError } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { requireLogin } from "../../access/scopes";

// The shop's access rule: an order belongs to the user who placed it, and only that
// user places, reads or lists it. The app has no roles, so nobody sees every order.

/**
 * The signed-in caller's user id; the endpoints are auth: true, so the runtime only calls them
 * signed in. An API key is 403: keys are for links and their analytics (access/scopes.ts).
 */
export function callerId(): string {
  requireLogin("place or read orders");
  return getAuthData()!.userID;
}

/**
 * The customer a request acts for: the signed-in caller. A `customerId` naming another
 * user is 403 `permission_denied` (`refusal`), not silently replaced by the caller's:
 * a client sending the wrong id learns so, instead of getting an answer about
 * someone else than it asked for. User ids are UUIDs, the same in any case (as under
 * /users/:id).
 */
export function callerCustomer(customerId: string | undefined, refusal: string): string {
  const caller = callerId();
  if (customerId !== undefined && customerId.toLowerCase() !== caller.toLowerCase()) throw APIError.permissionDenied(refusal);
  return caller;
}

/**
 * Another customer's order is 403 `permission_denied`, a missing one 404, as for
 * /users/:id. Telling the two apart gives nothing away although order ids are
 * sequential: orders are never deleted, and any customer sees the latest id in the
 * answer to their own order, so every lower id is known to exist.
 */
export function requireOwnOrder(order: { customerId: string }): void {
  if (order.customerId !== callerId()) throw APIError.permissionDenied("this order belongs to another customer");
}
