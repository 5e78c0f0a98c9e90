import { sql } from "drizzle-orm";
import * as p from "drizzle-orm/pg-core";

// The users table, as drizzle-kit generates its migrations from it
// (npx drizzle-kit generate --config users/drizzle.config.ts).
export const users = p.pgTable(
  "users",
  {
    id: p.uuid().primaryKey().default(sql`gen_random_uuid()`),
    /** Kept as given at sign-up; unique regardless of case (the index below). */
    email: p.text().notNull(),
    name: p.text().notNull(),
    age: p.integer().notNull(),
    /** Self-describing scrypt hash: scrypt$N$r$p$salt$key (base64). Never the password. */
    passwordHash: p.text("password_hash").notNull(),
    createdAt: p.timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Sign-up and login look emails up by lower(email): one index serves both and makes
    // "Ann@x.io" and "ann@x.io" the same account.
    p.uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`),
    // GET /users pages in sign-up order by keyset, (created_at, id) after the cursor.
    p.index("users_created_at_id_idx").on(t.createdAt, t.id),
  ],
);
