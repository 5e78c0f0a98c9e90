import { api } from "encore.dev/api";
import type { MinLen } from "encore.dev/validate";
import { db } from "./db";

export interface User {
  id: number;
  name: string;
  /** NULL in the table until the user picks one. */
  nickname?: string;
}

export interface NewUser {
  name: string & MinLen<1>;
  nickname?: string;
}

/** Adds a user; the answer is the row as stored, a missing nickname included. */
export const create = api(
  { expose: true, method: "POST", path: "/users" },
  async ({ name, nickname }: NewUser): Promise<User> => {
    const row = await db.queryRow<User>`
      INSERT INTO users (name, nickname) VALUES (${name}, ${nickname ?? null})
      RETURNING id, name, nickname`;
    // INSERT ... RETURNING always yields the row it wrote.
    return row!;
  },
);

/** Looks a user up by id; an unknown id is a null user, not an error, so a page can say "no such user". */
export const find = api(
  { expose: true, method: "GET", path: "/users/:id" },
  async ({ id }: { id: number }): Promise<{ user: User | null }> => {
    const user = await db.queryRow<User>`SELECT id, name, nickname FROM users WHERE id = ${id}`;
    return { user };
  },
);
