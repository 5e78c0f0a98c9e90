// The app's stored rows, table by table, so that a run can be compared with what came before it.
import { queryDatabase } from "./query.ts";

/** Every row of a table by its key, as JSON. */
export type Snapshot = Record<string, Map<string, Record<string, unknown>>>;

/** The tables a request can change, with their keys: database, table, key column. */
const tables = [
  ["url", "urls", "code"],
  ["urlb", "url", "id"],
  ["users", "users", "id"],
  ["orders", "orders", "id"],
  ["orders", "order_items", "id"],
  ["orders", "products", "id"],
] as const;

export async function snapshot(serverUrl: string, prefix: string): Promise<Snapshot> {
  const result: Snapshot = {};
  for (const [database, table, key] of tables) {
    const rows = await queryDatabase<{ k: string; row: Record<string, unknown> }>(serverUrl, `${prefix}${database}`, `SELECT ${key}::text AS k, to_jsonb(t) AS row FROM ${table} t`);
    result[`${database}.${table}`] = new Map(rows.map((r) => [r.k, r.row]));
  }
  return result;
}

/** Per table: the keys of rows added, removed and changed between two snapshots, sorted. */
export function tableChanges(before: Snapshot, after: Snapshot): Record<string, { added: string[]; removed: string[]; changed: string[] }> {
  return Object.fromEntries(
    Object.keys(before).map((table) => {
      const was = before[table]!;
      const now = after[table]!;
      return [
        table,
        {
          added: [...now.keys()].filter((k) => !was.has(k)).sort(),
          removed: [...was.keys()].filter((k) => !now.has(k)).sort(),
          changed: [...was.keys()].filter((k) => now.has(k) && JSON.stringify(now.get(k)) !== JSON.stringify(was.get(k))).sort(),
        },
      ];
    }),
  );
}
