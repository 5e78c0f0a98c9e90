import { api, APIError } from "encore.dev/api";
import type { MaxLen, MinLen } from "encore.dev/validate";
import { getAuthData } from "~encore/auth";
import { workspaces } from "~encore/clients";
import { apiKeyScopes, requireLogin, type ApiKeyScope } from "../access/scopes";
import { userNotFound } from "./accounts/own-record";
import { generateApiKey, hashApiKey, isWellFormedApiKey } from "../access/api-key";
import { keyStore, type ApiKeyInfo, type KeyOwner } from "./keys/key-store";

/**
 * Unrevoked keys an account may hold, expired ones included (they stay listed until
 * revoked). Enough for a key per program and machine; a bound on what one account stores.
 */
export const maxApiKeysPerAccount = 50;

export interface CreateApiKeyRequest {
  /** What the key is for, to tell keys apart: 1 to 100 characters, not blank; stored trimmed. */
  name: string & MinLen<1> & MaxLen<100>;
  /** When the key stops working (ISO time, in the future); left out, it works until revoked. */
  expiresAt?: Date;
  /**
   * What the key may do: one or more of links:read, links:write, analytics:read
   * (access/scopes.ts). Left out: all three, what a key made before scopes existed may do,
   * so a program that knows nothing of scopes keeps working. The account itself (profile,
   * password, keys) and administration are never a key's, whatever it is given.
   */
  scopes?: ApiKeyScope[];
  /**
   * The one workspace the key acts in: its links are the only ones it reads or changes, and
   * it creates links there. Left out: the caller's personal workspace. The key may do there
   * what its maker's role allows at each request (a viewer's key reads only), and nothing
   * once its maker leaves the workspace.
   */
  workspaceId?: string;
}

export interface CreatedApiKey {
  id: string;
  name: string;
  /** The key, `usk_` and 43 characters: shown this once, only its hash is stored. */
  key: string;
  prefix: string;
  scopes: ApiKeyScope[];
  workspaceId: string;
  createdAt: Date;
  expiresAt?: Date;
}

export interface ListApiKeysResponse {
  /** The caller's unrevoked keys, newest first; never the keys themselves. */
  keys: ApiKeyInfo[];
}

export interface ApiKeyIdRequest {
  id: string;
}

/**
 * Creates an API key for the caller: `Authorization: Bearer <key>` or `X-API-Key: <key>`
 * then signs in as the caller where its scopes allow. Past `maxApiKeysPerAccount` unrevoked
 * keys, 400 failed_precondition: the caller must revoke one first. Login tokens only:
 * a key is 403 permission_denied here, as on listing and revoking keys.
 */
export const createApiKey = api(
  // sensitive: the answer holds the key, which must not reach traces or logs.
  { expose: true, auth: true, method: "POST", path: "/me/api-keys", sensitive: true },
  async ({ name, expiresAt, scopes = [...apiKeyScopes], workspaceId }: CreateApiKeyRequest): Promise<CreatedApiKey> => {
    requireLogin("manage API keys");
    const trimmed = name.trim();
    if (trimmed === "") throw APIError.invalidArgument("name must not be blank");
    if (expiresAt !== undefined && !(expiresAt.getTime() > Date.now())) {
      throw APIError.invalidArgument("expiresAt must be a time in the future");
    }
    if (scopes.length === 0) throw APIError.invalidArgument(`scopes must hold at least one of ${apiKeyScopes.join(", ")}`);
    const chosen = apiKeyScopes.filter((scope) => scopes.includes(scope)); // each once, in a fixed order
    const { key, keyHash, prefix } = generateApiKey();
    const caller = getAuthData()!; // auth: true, so the runtime only calls it signed in
    const team = workspaceId === undefined || workspaceId === caller.userID ? null : workspaceId;
    if (team !== null && (await workspaces.roleIn({ workspaceId: team, userId: caller.userID })).role === undefined) {
      throw APIError.notFound("workspace not found");
    }
    const stored = await keyStore.insert(
      caller.userID,
      caller.credentialsVersion,
      { name: trimmed, keyHash, prefix, scopes: chosen, workspaceId: team, ...(expiresAt && { expiresAt }) },
      maxApiKeysPerAccount,
    );
    if (stored === "missing") throw userNotFound();
    // The password changed while this request was on its way: its sign-in has ended.
    if (stored === "ended") throw APIError.unauthenticated("invalid or expired token");
    if (stored === "full") {
      throw APIError.failedPrecondition(
        `an account may hold at most ${maxApiKeysPerAccount} API keys: revoke one to create another`,
      );
    }
    const { id, createdAt } = stored;
    return { id, name: trimmed, key, prefix, scopes: chosen, workspaceId: stored.workspaceId, createdAt, ...(stored.expiresAt && { expiresAt: stored.expiresAt }) };
  },
);

/** The caller's API keys, expired ones included, revoked ones not: name, prefix, scopes and times, never the key. Login tokens only. */
export const listApiKeys = api(
  { expose: true, auth: true, method: "GET", path: "/me/api-keys" },
  async (): Promise<ListApiKeysResponse> => {
    requireLogin("manage API keys");
    return { keys: await keyStore.list(getAuthData()!.userID) };
  },
);

/**
 * Revokes one of the caller's keys: refused from the next request on, on every instance.
 * Another account's key, an unknown one and one already revoked are all 404 not_found.
 * Login tokens only.
 */
export const revokeApiKey = api(
  { expose: true, auth: true, method: "DELETE", path: "/me/api-keys/:id" },
  async ({ id }: ApiKeyIdRequest): Promise<void> => {
    requireLogin("manage API keys");
    if (!(await keyStore.revoke(getAuthData()!.userID, id.toLowerCase()))) throw APIError.notFound("API key not found");
  },
);

export interface ResolveApiKeyRequest {
  key: string & MaxLen<100>;
}

export interface ResolveApiKeyResponse {
  /** The key's account and scopes; null for a key unknown, revoked or expired, or of a disabled account. */
  owner: KeyOwner | null;
}

/** The account an API key signs in as, for the auth handler. Internal. */
export const resolveApiKey = api(
  // sensitive: the request holds the key.
  { expose: false, method: "POST", path: "/internal/users/api-keys/resolve", sensitive: true },
  async ({ key }: ResolveApiKeyRequest): Promise<ResolveApiKeyResponse> => {
    if (!isWellFormedApiKey(key)) return { owner: null };
    return { owner: (await keyStore.resolve(hashApiKey(key))) ?? null };
  },
);
