/**
 * The one small interface every SQL engine sits behind. Rows come back with the
 * same JavaScript types on every driver: int8 as number, numeric as string,
 * timestamptz as Date, json/jsonb parsed.
 */
export type Row = Record<string, unknown>;

export interface SqlQueryable {
  /** One statement with $1..$n parameters. */
  query(text: string, params: readonly unknown[]): Promise<Row[]>;
  /** Several statements, no parameters (migrations). */
  execScript(sql: string): Promise<void>;
}

export interface SqlTransaction extends SqlQueryable {
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

export interface SqlConnection extends SqlQueryable {
  release(): Promise<void>;
}

export interface SqlDriver extends SqlQueryable {
  readonly kind: "pglite" | "postgres";
  begin(): Promise<SqlTransaction>;
  /** A dedicated connection; others wait (PGlite) or use other pool members (PostgreSQL). */
  acquire(): Promise<SqlConnection>;
  /** Makes connectionString reachable by other client libraries. Idempotent. */
  serveConnections(): Promise<void>;
  close(): Promise<void>;
}
