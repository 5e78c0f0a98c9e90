/**
 * The one small interface the runtime reaches PostgreSQL through. Rows come back
 * with these JavaScript types: int8 as number, numeric as string, timestamptz as
 * Date, json/jsonb parsed.
 */
export type Row = Record<string, unknown>;

export interface SqlQueryable {
  /** One statement with $1..$n parameters, bounded by the query timeout. */
  query(text: string, params: readonly unknown[]): Promise<Row[]>;
  /** Several statements, no parameters, no time limit (migrations, and waits on their lock). */
  execScript(sql: string): Promise<void>;
}

export interface SqlTransaction extends SqlQueryable {
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

export interface SqlConnection extends SqlQueryable {
  /**
   * One statement without parameters, its rows as arrays in column order with the
   * columns' names and type OIDs (the development dashboard's console). Sent as a prepared
   * statement, so the server refuses a text holding several statements.
   */
  queryTable(text: string): Promise<ResultTable>;
  release(): Promise<void>;
}

export interface ResultTable {
  readonly columns: readonly { readonly name: string; readonly typeOid: number }[];
  readonly rows: readonly (readonly unknown[])[];
  /** Rows returned or affected, as the server reports it; null when it reports none. */
  readonly rowCount: number | null;
}

/** A pool's connections at one moment (metrics). */
export interface PoolStats {
  /** Connections handed out: running a query or held by a transaction or session. */
  readonly inUse: number;
  readonly idle: number;
  /** Callers waiting for a connection, all being in use. */
  readonly waiting: number;
  readonly max: number;
}

export interface SqlDriver extends SqlQueryable {
  begin(): Promise<SqlTransaction>;
  /** A dedicated connection from the pool, for session-level features. */
  acquire(): Promise<SqlConnection>;
  close(): Promise<void>;
  /** The pool's connections now; absent where there is no pool to report. */
  poolStats?(): PoolStats;
}
