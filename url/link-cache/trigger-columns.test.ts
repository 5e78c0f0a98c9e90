import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { db } from "../db";
import { evictionChannel } from "./evictions";
import { lookupQuery } from "./lookup";

// The cache is only as fresh as the eviction trigger is complete: a column the lookup reads
// that the trigger does not watch is answered stale from every instance's cache until the
// entry leaves it. The columns come from PostgreSQL itself (what the lookup's query depends
// on), and each is checked by changing it alone and listening, so the trigger's UPDATE OF
// list and its WHEN condition are both what is tested, as migrated.

/** Read by the lookup, yet rightly not watched: the click flush sets clicks alone, often, and must not empty the caches. */
const unwatched = new Set(["clicks"]);

/** An expression giving `column` another value than it has, by its type; a column's own constraints first. */
function changed(column: string, type: string): string {
  if (column === "disabled_reason") return "CASE WHEN disabled_reason = 'abuse' THEN 'host' ELSE 'abuse' END";
  if (column === "redirect_type") return "CASE WHEN redirect_type = 302 THEN 301 ELSE 302 END";
  if (column === "domain") return "NULL"; // the row starts on a domain (evictsWhenChanged)
  const byType: Record<string, string> = {
    text: `coalesce(${column}, '') || 'x'`,
    integer: `coalesce(${column}, 0) + 1`,
    "timestamp with time zone": `coalesce(${column}, now()) + interval '1 day'`,
    boolean: `NOT coalesce(${column}, false)`,
    jsonb: `coalesce(${column}, '[]'::jsonb) || '[{}]'::jsonb`,
  };
  const expression = byType[type];
  if (expression === undefined) throw new Error(`say how to change ${column} (${type}) in this test`);
  return expression;
}

let client: pg.Client;
const heard: string[] = [];

beforeAll(async () => {
  await db.exec`SELECT 1`; // the database is created and migrated at its first query
  client = new pg.Client({ connectionString: db.connectionString });
  await client.connect();
  client.on("notification", (n) => heard.push(n.payload ?? ""));
  await client.query(`LISTEN ${evictionChannel}`);
});

afterAll(() => client.end());

/** The columns of urls the lookup's query reads, with their types, as PostgreSQL resolves the query. */
async function columnsTheLookupReads(): Promise<Map<string, string>> {
  // A function with an SQL-standard body is parsed when created, and its dependencies on columns recorded.
  await client.query(`CREATE FUNCTION pg_temp.link_lookup(text) RETURNS SETOF record LANGUAGE sql STABLE BEGIN ATOMIC ${lookupQuery}; END`);
  try {
    const { rows } = await client.query<{ name: string; type: string }>(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_depend d JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
       WHERE d.classid = 'pg_proc'::regclass AND d.objid = 'pg_temp.link_lookup(text)'::regprocedure
         AND d.refobjid = 'urls'::regclass AND d.refobjsubid > 0`,
    );
    return new Map(rows.map((r) => [r.name, r.type]));
  } finally {
    await client.query("DROP FUNCTION pg_temp.link_lookup(text)");
  }
}

/**
 * Whether changing `column` alone on a row of its own sends the row's code on the eviction
 * channel. A marker sent after the update commits arrives after the update's notification, if
 * it sent one: a session's notifications arrive in the order their transactions committed.
 */
async function evictsWhenChanged(column: string, type: string): Promise<boolean> {
  const code = `col_${column}`;
  if (column === "domain") {
    // A domain can only be one of the domains table's: the row starts on one, and the change takes it off.
    await client.query("INSERT INTO domains (host, workspace_id, token) VALUES ('col-domain.example', 'w', 't') ON CONFLICT DO NOTHING");
    await client.query("INSERT INTO urls (code, original_url, domain) VALUES ($1, $2, 'col-domain.example')", [code, `https://${column}.example`]);
  } else {
    await client.query("INSERT INTO urls (code, original_url) VALUES ($1, $2)", [code, `https://${column}.example`]);
  }
  const from = heard.length;
  await client.query(`UPDATE urls SET ${column} = ${changed(column, type)} WHERE code = $1`, [code]);
  const marker = `marker_${column}`;
  await client.query("SELECT pg_notify($1, $2)", [evictionChannel, marker]);
  await expect.poll(() => heard.slice(from)).toContain(marker);
  return heard.slice(from, heard.indexOf(marker, from)).includes(code);
}

test("the lookup reads a link's target and every column its answer depends on", async () => {
  // Guards the check below from passing on an empty list, were the catalog query to find nothing.
  expect([...(await columnsTheLookupReads()).keys()]).toEqual(expect.arrayContaining(["code", "original_url", "expires_at", "max_clicks", "password_hash"]));
});

test("a change of any column the lookup reads evicts the code from every instance's cache, but clicks", async () => {
  const notEvicting: string[] = [];
  for (const [column, type] of await columnsTheLookupReads()) {
    if (!(await evictsWhenChanged(column, type))) notEvicting.push(column);
  }
  expect(notEvicting.sort()).toEqual([...unwatched].sort());
});
