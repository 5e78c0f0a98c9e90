import pg from "pg";

/** Runs one query on `database` of the PostgreSQL server at `serverUrl`, on a connection of its own. */
export async function queryDatabase<T extends pg.QueryResultRow>(serverUrl: string, database: string, text: string, values: unknown[] = []): Promise<T[]> {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
