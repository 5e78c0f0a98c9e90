import { api } from "encore.dev/api";
import type { MinLen } from "encore.dev/validate";
import { db, pool } from "./db";

// As in Encore's simple-event-driven example: the id is declared a string, but the
// BIGSERIAL column comes back from Encore's SQL driver as a number, and Encore writes
// the number. The handler returns the row as the driver gives it.
interface User {
  id: string;
  name: string;
  email: string;
}

interface UserRequest {
  name: string & MinLen<1>;
  email: string;
}

/** Adds a user; the answer is the row as stored. */
export const add = api(
  { expose: true, method: "POST", path: "/user" },
  async ({ name, email }: UserRequest): Promise<User> => {
    const row = await db.queryRow<User>`
      INSERT INTO users (name, email) VALUES (${name}, ${email})
      RETURNING id, name, email`;
    // INSERT ... RETURNING always yields the row it wrote.
    return row!;
  },
);

/** Every user, as the example lists them. */
export const list = api(
  { expose: true, method: "GET", path: "/user" },
  async (): Promise<{ users: User[] }> => {
    const users: User[] = [];
    for await (const row of db.query<User>`SELECT name, email, id FROM users ORDER BY id`) {
      users.push(row);
    }
    return { users };
  },
);

/**
 * How many users there are, counted with node-postgres, which reads a bigint such as
 * COUNT(*) as a string: the field is declared a number, and the answer carries the
 * string, as under Encore.
 */
export const count = api(
  { expose: true, method: "GET", path: "/user/count" },
  async (): Promise<{ count: number }> => {
    const { rows } = await pool.query<{ count: number }>("SELECT COUNT(*) AS count FROM users");
    return { count: rows[0]!.count };
  },
);
