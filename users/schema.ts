import { sql } from "drizzle-orm";
import * as p from "drizzle-orm/pg-core";
import type { ApiKeyScope } from "../access/scopes";

// The users service's tables, as drizzle-kit generates its migrations from them
// (npx drizzle-kit generate --config users/drizzle.config.ts).
export const users = p.pgTable(
  "users",
  {
    id: p.uuid().primaryKey().default(sql`gen_random_uuid()`),
    /** Kept as given at sign-up; unique regardless of case (the index below). */
    email: p.text().notNull(),
    name: p.text().notNull(),
    /** Optional since sign-up stopped asking for it; null when not given. */
    age: p.integer(),
    /** Self-describing scrypt hash: scrypt$N$r$p$salt$key (base64). Never the password. */
    passwordHash: p.text("password_hash").notNull(),
    createdAt: p.timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set by a moderator: the account cannot log in, and its tokens and API keys are refused. */
    disabledAt: p.timestamp("disabled_at", { withTimezone: true }),
    /**
     * Raised by each password change and each disabling: a login token carries the value it
     * was issued under, and one issued under an older value is refused (auth/gateway.ts).
     */
    credentialsVersion: p.integer("credentials_version").notNull().default(0),
    /**
     * When the account proved it reads its email (a mailed link, POST /email-verification/confirm);
     * null until then, and again after the email changes. Asked at login only when the
     * instance requires it (EMAIL_VERIFICATION=on). Accounts from before it existed count as verified.
     */
    emailVerifiedAt: p.timestamp("email_verified_at", { withTimezone: true }),
  },
  (t) => [
    // Sign-up and login look emails up by lower(email): one index serves both and makes
    // "Ann@x.io" and "ann@x.io" the same account.
    p.uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`),
    // GET /users pages in sign-up order by keyset, (created_at, id) after the cursor.
    p.index("users_created_at_id_idx").on(t.createdAt, t.id),
  ],
);

/** Keys for programs: `Authorization: Bearer usk_…` signs in as the key's owner. */
export const apiKeys = p.pgTable(
  "api_keys",
  {
    id: p.uuid().primaryKey().default(sql`gen_random_uuid()`),
    userId: p
      .uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: p.text().notNull(),
    /** SHA-256 of the whole key, hex (access/api-key.ts says why a fast hash is right). Never the key. */
    keyHash: p.text("key_hash").notNull(),
    /** The first 8 characters after `usk_`, so the owner can tell keys apart in a list. */
    prefix: p.text().notNull(),
    createdAt: p.timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Written at most once a minute per key, not on every request. */
    lastUsedAt: p.timestamp("last_used_at", { withTimezone: true }),
    expiresAt: p.timestamp("expires_at", { withTimezone: true }),
    /** Revoked keys keep their row (when they were last used stays known) and are never accepted again. */
    revokedAt: p.timestamp("revoked_at", { withTimezone: true }),
    /**
     * What the key may do (access/scopes.ts). Keys made before scopes existed get the three,
     * which is all they could do that a key still may.
     */
    scopes: p
      .text()
      .array()
      .$type<ApiKeyScope[]>()
      .notNull().default(sql`'{links:read,links:write,analytics:read}'::text[]`),
    /**
     * The one workspace the key acts in (an id of the workspaces service). Null: the owner's
     * personal workspace, as for keys made before workspaces, so none needs rewriting.
     */
    workspaceId: p.text("workspace_id"),
  },
  (t) => [
    // Every request with a key looks it up by its hash.
    p.uniqueIndex("api_keys_key_hash_key").on(t.keyHash),
    // The owner's list, newest first, and the count of its unrevoked keys.
    p.index("api_keys_user_id_created_at_idx").on(t.userId, t.createdAt),
    p.check("api_keys_name_length", sql`char_length(${t.name}) BETWEEN 1 AND 100`),
    p.check(
      "api_keys_scopes_known",
      sql`cardinality(${t.scopes}) >= 1 AND ${t.scopes} <@ '{links:read,links:write,analytics:read}'::text[]`,
    ),
  ],
);

/**
 * A browser's sign-in that lasts while it is used: POST /auth/login starts one, and its
 * refresh token (an HttpOnly cookie, session_tokens) gets a new login token and a new
 * refresh token from POST /auth/refresh. Live while not revoked, before `idle_expires_at`
 * (moved on at each refresh) and `expires_at` (fixed at sign-in), and while the account's
 * credentials version is still the one it was started under: a password change, a
 * disabling and "sign out everywhere" raise it and so end every session at once.
 */
export const sessions = p.pgTable(
  "sessions",
  {
    id: p.uuid().primaryKey().default(sql`gen_random_uuid()`),
    userId: p
      .uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    credentialsVersion: p.integer("credentials_version").notNull(),
    createdAt: p.timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: p.timestamp("last_used_at", { withTimezone: true }).notNull().defaultNow(),
    idleExpiresAt: p.timestamp("idle_expires_at", { withTimezone: true }).notNull(),
    expiresAt: p.timestamp("expires_at", { withTimezone: true }).notNull(),
    /** The browser's User-Agent at sign-in, cut to 256 characters, so its owner can tell sessions apart. */
    userAgent: p.text("user_agent"),
    revokedAt: p.timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [p.index("sessions_user_id_created_at_idx").on(t.userId, t.createdAt)],
);

/**
 * Every refresh token a session was given, as SHA-256 hashes (never the token): the current
 * one has no `replaced_at`. A replaced one presented again is either a second tab that
 * refreshed at the same moment (within the grace, answered without rotating) or a copy in
 * someone else's hands, which ends the session.
 */
export const sessionTokens = p.pgTable(
  "session_tokens",
  {
    tokenHash: p.text("token_hash").primaryKey(),
    sessionId: p
      .uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    createdAt: p.timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    replacedAt: p.timestamp("replaced_at", { withTimezone: true }),
  },
  (t) => [p.index("session_tokens_session_id_idx").on(t.sessionId)],
);

/**
 * A password reset asked for by email (POST /password-reset): the token the mail carries,
 * as a SHA-256 hash (never the token), good once and for an hour. A new request replaces
 * the account's earlier ones, so only the latest mail's link works.
 */
export const passwordResets = p.pgTable(
  "password_resets",
  {
    tokenHash: p.text("token_hash").primaryKey(),
    userId: p
      .uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: p.timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: p.timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [p.index("password_resets_user_id_idx").on(t.userId)],
);

/**
 * An email verification mailed at sign-up or on an email change (EMAIL_VERIFICATION=on): the
 * token as a SHA-256 hash, for the address it was mailed to, good once and for a day. It
 * verifies nothing once the account's email is another.
 */
export const emailVerifications = p.pgTable(
  "email_verifications",
  {
    tokenHash: p.text("token_hash").primaryKey(),
    userId: p
      .uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: p.text().notNull(),
    expiresAt: p.timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [p.index("email_verifications_user_id_idx").on(t.userId)],
);
