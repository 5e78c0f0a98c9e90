import { db } from "./db";

// Every query of the users table, in one place, so the later move to drizzle-orm
// changes this file and leaves the endpoints as they are.

export interface User {
  id: string;
  /** As given at sign-up; matched without regard to case. */
  email: string;
  name: string;
  age: number;
  createdAt: Date;
}

export interface NewUser {
  email: string;
  name: string;
  age: number;
  passwordHash: string;
}

interface UserRow {
  id: string;
  email: string;
  name: string;
  age: number;
  created_at: Date;
}

const userOf = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  age: row.age,
  createdAt: row.created_at,
});

// A well-formed UUID, checked before querying: PostgreSQL rejects anything else
// cast to uuid with an error, where the caller wants "no such user".
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const userStore = {
  /**
   * Stores a new account; undefined when the email is taken in any case. The unique
   * index on lower(email) decides, so two sign-ups racing for one email cannot both win.
   */
  async insert(user: NewUser): Promise<User | undefined> {
    const row = await db.queryRow<UserRow>`
      INSERT INTO users (email, name, age, password_hash)
      VALUES (${user.email}, ${user.name}, ${user.age}, ${user.passwordHash})
      ON CONFLICT DO NOTHING
      RETURNING id, email, name, age, created_at`;
    return row ? userOf(row) : undefined;
  },

  /** The account with this email in any case, with its password hash; for credential checks only. */
  async findLogin(email: string): Promise<{ id: string; email: string; passwordHash: string } | undefined> {
    const row = await db.queryRow<{ id: string; email: string; password_hash: string }>`
      SELECT id, email, password_hash FROM users WHERE lower(email) = lower(${email})`;
    return row ? { id: row.id, email: row.email, passwordHash: row.password_hash } : undefined;
  },

  async exists(id: string): Promise<boolean> {
    if (!uuidPattern.test(id)) return false;
    const row = await db.queryRow<{ found: boolean }>`SELECT EXISTS (SELECT 1 FROM users WHERE id = ${id}::uuid) AS found`;
    return row?.found === true;
  },
};
