// Who may do what: the scopes an API key carries, and the one check every endpoint that acts
// as its caller makes. Shared by the services (a folder of plain code, not a service), so
// that each endpoint states its need in one line and the rule lives here once.
//
// A login token (POST /auth/login) is the account: it may do everything the account may.
// An API key is a credential for programs: it may use links and their analytics, as far as
// its scopes say, and nothing else. Whatever its scopes, a key never manages the account
// (its profile, email, password, deletion), never creates, lists or revokes keys, and
// never acts as an administrator: a stolen key stays a key, and cannot make itself more.
import { APIError } from "encore.dev/api";
import { getAuthData } from "~encore/auth";

/**
 * What a key may do:
 * - `links:read`: list the account's links and read one (GET /me/urls, GET /links, GET /links/:code), list tags,
 *   follow imports and export links (GET /workspaces/:id/imports…, GET /workspaces/:id/export);
 * - `links:write`: create, change and delete them (POST /shorten, POST /url, POST /links/bulk, PATCH and DELETE /links/:code),
 *   tags (POST /links/tags, POST, PATCH and DELETE /workspaces/:id/tags…), and import them (POST /workspaces/:id/imports);
 * - `analytics:read`: read their click analytics (GET /:code/analytics of an owned link, GET /me/clicks, a tag's, a domain's), and export them.
 */
export type ApiKeyScope = "links:read" | "links:write" | "analytics:read";

/** Every scope, in the order they are shown. */
export const apiKeyScopes: readonly ApiKeyScope[] = Object.freeze(["links:read", "links:write", "analytics:read"]);

/** How the caller signed in. */
export type Credential = "login" | "api-key";

/**
 * Refuses an API key that lacks `scope`, with 403 permission_denied naming it. A login
 * token, and a caller not signed in, pass: an endpoint open to anonymous callers (POST
 * /shorten) stays open, and decides for itself what an anonymous caller may do.
 */
export function requireScope(scope: ApiKeyScope): void {
  const caller = getAuthData();
  if (caller?.credential === "api-key" && !caller.scopes.includes(scope)) {
    throw APIError.permissionDenied(`this API key lacks the ${scope} scope: create a key with it to do this`);
  }
}

/**
 * Refuses an API key, whatever its scopes, with 403 permission_denied: `action` is what
 * only the account itself may do ("manage API keys"). A login token passes.
 */
export function requireLogin(action: string): void {
  if (getAuthData()?.credential === "api-key") {
    throw APIError.permissionDenied(`an API key cannot ${action}: sign in with the account's password to do this`);
  }
}

/**
 * The workspace an API key acts in, when the caller signs in with one; undefined for a
 * login token (which acts in every workspace of the account) and for no caller.
 */
export function keyWorkspace(): string | undefined {
  const caller = getAuthData();
  return caller?.credential === "api-key" ? caller.workspaceId : undefined;
}

/**
 * Refuses, with 403 permission_denied, an API key made for another workspace than
 * `workspaceId`. Each endpoint calls it once the caller's role has allowed the action, so
 * that a key never learns more of another workspace than its account would (a team the
 * account is not in stays 404).
 */
export function requireKeyWorkspace(workspaceId: string): void {
  const bound = keyWorkspace();
  if (bound !== undefined && bound !== workspaceId) {
    throw APIError.permissionDenied("this API key acts in another workspace: use a key made for this one");
  }
}

/**
 * The signed-in caller's account, as far as `scope` lets it act for the account: undefined
 * for a caller not signed in and for an API key without `scope`. For endpoints open to
 * everyone that show an owner more (a password link's stats), so that a key without the
 * scope sees what an anonymous caller sees, no more.
 */
export function callerActingWith(scope: ApiKeyScope): string | undefined {
  const caller = getAuthData();
  if (caller === null || caller === undefined) return undefined;
  return caller.credential === "api-key" && !caller.scopes.includes(scope) ? undefined : caller.userID;
}
