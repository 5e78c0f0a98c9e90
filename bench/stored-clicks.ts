// Reads the total of stored clicks after the app has stopped, straight from its database.
import pg from "pg";

export interface Where {
  readonly serverUrl: string;
  readonly database: string;
}

/** A connection of its own to the database `where` names; the caller ends it. */
export async function connectTo(where: Where): Promise<pg.Client> {
  const url = new URL(where.serverUrl);
  url.pathname = `/${where.database}`;
  const client = new pg.Client({ connectionString: url.href });
  client.on("error", () => {}); // a failure surfaces through the query in flight
  await client.connect();
  return client;
}

/** Runs one query on the database `where` names, on a connection of its own. */
export async function queryStored<T extends pg.QueryResultRow>(where: Where, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = await connectTo(where);
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** Stored clicks of one code, or of all codes when `code` is omitted. */
export async function storedClicks(where: Where, code?: string): Promise<number> {
  const sql = `SELECT coalesce(sum(clicks), 0)::int AS total FROM urls${code ? " WHERE code = $1" : ""}`;
  return (await queryStored<{ total: number }>(where, sql, code ? [code] : []))[0]!.total;
}
