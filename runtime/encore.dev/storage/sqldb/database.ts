import { connectionStringFor, openDatabase } from "../../../internal/sql/databases.ts";
import type { SqlDriver, SqlQueryable, SqlTransaction, SqlConnection } from "../../../internal/sql/driver.ts";
import { recorder } from "../../../internal/tracing/mod.ts";

export interface SQLMigrationsConfig {
  path: string;
  /** The migrations' layout: Encore's numbered files when absent, drizzle-kit's, or Prisma Migrate's. */
  source?: "prisma" | "drizzle" | "drizzle/v1";
}

export interface SQLDatabaseConfig {
  migrations?: string | SQLMigrationsConfig;
}

export type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- matches encore.dev

/** Values a query parameter may take. */
export type Primitive =
  | string
  | string[]
  | number
  | number[]
  | boolean
  | boolean[]
  | Buffer
  | Date
  | Date[]
  | Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- json parameters
  | Record<string, any>[] // eslint-disable-line @typescript-eslint/no-explicit-any -- json parameters
  | null
  | undefined;

/** `a ${x} b ${y}` becomes "a $1 b $2" with [x, y]. */
function fromTemplate(strings: TemplateStringsArray): string {
  let text = strings[0] ?? "";
  for (let i = 1; i < strings.length; i++) text += "$" + i + strings[i];
  return text;
}

/** The query methods shared by databases, transactions and connections. */
abstract class BaseQueryExecutor {
  protected abstract target(): SqlQueryable | Promise<SqlQueryable>;
  /** The SQLDatabase's name, for traces. */
  protected abstract databaseName(): string;

  /** Runs a query and yields its rows. */
  async *query<T extends Row = Record<string, any>>( // eslint-disable-line @typescript-eslint/no-explicit-any
    strings: TemplateStringsArray,
    ...params: Primitive[]
  ): AsyncGenerator<T> {
    yield* (await this.run(fromTemplate(strings), params)) as T[];
  }

  async *rawQuery<T extends Row = Record<string, any>>( // eslint-disable-line @typescript-eslint/no-explicit-any
    query: string,
    ...params: Primitive[]
  ): AsyncGenerator<T> {
    yield* (await this.run(query, params)) as T[];
  }

  /** Runs a query and returns all its rows. */
  async queryAll<T extends Row = Record<string, any>>( // eslint-disable-line @typescript-eslint/no-explicit-any
    strings: TemplateStringsArray,
    ...params: Primitive[]
  ): Promise<T[]> {
    return (await this.run(fromTemplate(strings), params)) as T[];
  }

  async rawQueryAll<T extends Row = Record<string, any>>( // eslint-disable-line @typescript-eslint/no-explicit-any
    query: string,
    ...params: Primitive[]
  ): Promise<T[]> {
    return (await this.run(query, params)) as T[];
  }

  /** Runs a query and returns its first row, or null when there is none. */
  async queryRow<T extends Row = Record<string, any>>( // eslint-disable-line @typescript-eslint/no-explicit-any
    strings: TemplateStringsArray,
    ...params: Primitive[]
  ): Promise<T | null> {
    return ((await this.run(fromTemplate(strings), params))[0] as T | undefined) ?? null;
  }

  async rawQueryRow<T extends Row = Record<string, any>>( // eslint-disable-line @typescript-eslint/no-explicit-any
    query: string,
    ...params: Primitive[]
  ): Promise<T | null> {
    return ((await this.run(query, params))[0] as T | undefined) ?? null;
  }

  /** Runs a statement for its effect. */
  async exec(strings: TemplateStringsArray, ...params: Primitive[]): Promise<void> {
    await this.run(fromTemplate(strings), params);
  }

  async rawExec(query: string, ...params: Primitive[]): Promise<void> {
    await this.run(query, params);
  }

  private async run(text: string, params: Primitive[]): Promise<Row[]> {
    const target = await this.target();
    // One "sql" span per statement while tracing is on.
    return recorder === null ? target.query(text, params) : recorder.sql(this.databaseName(), text, () => target.query(text, params));
  }
}

/**
 * A PostgreSQL database. Each name is its own database, migrated at start-up.
 * @example
 * const db = new SQLDatabase("url", { migrations: "./migrations" });
 * const row = await db.queryRow`SELECT original_url FROM url WHERE id = ${id}`;
 */
export class SQLDatabase extends BaseQueryExecutor {
  public readonly name: string;
  #driver: SqlDriver | undefined;

  constructor(name: string, _cfg?: SQLDatabaseConfig) {
    super();
    this.name = name;
  }

  /** A reference to a database declared elsewhere in the app. */
  static named<Name extends string>(name: Name): SQLDatabase {
    return new SQLDatabase(name);
  }

  /**
   * A connection string for other PostgreSQL client libraries (drizzle, knex, ...).
   * A plain `postgres://user:password@host:port/database` URL, on the embedded cluster
   * (127.0.0.1) as on DATABASE_URL's server.
   */
  get connectionString(): string {
    return connectionStringFor(this.name);
  }

  /** A dedicated connection, for session-level features. Close it when done. */
  async acquire(): Promise<Connection> {
    return new Connection(await (await this.driver()).acquire(), this.name);
  }

  /** Starts a transaction. Finish it with commit() or rollback(). */
  async begin(): Promise<Transaction> {
    return new Transaction(await (await this.driver()).begin(), this.name);
  }

  protected target(): SqlDriver | Promise<SqlDriver> {
    return this.#driver ?? this.driver();
  }

  protected databaseName(): string {
    return this.name;
  }

  private async driver(): Promise<SqlDriver> {
    this.#driver ??= await openDatabase(this.name);
    return this.#driver;
  }
}

export class Transaction extends BaseQueryExecutor implements AsyncDisposable {
  #done = false;

  constructor(
    private readonly impl: SqlTransaction,
    private readonly database = "",
  ) {
    super();
  }

  async commit(): Promise<void> {
    this.#done = true;
    await this.impl.commit();
  }

  async rollback(): Promise<void> {
    this.#done = true;
    await this.impl.rollback();
  }

  /** `await using tx = await db.begin()` rolls back unless committed. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (!this.#done) await this.rollback();
  }

  protected target(): SqlQueryable {
    return this.impl;
  }

  protected databaseName(): string {
    return this.database;
  }
}

export class Connection extends BaseQueryExecutor {
  constructor(
    private readonly impl: SqlConnection,
    private readonly database = "",
  ) {
    super();
  }

  async close(): Promise<void> {
    await this.impl.release();
  }

  protected target(): SqlQueryable {
    return this.impl;
  }

  protected databaseName(): string {
    return this.database;
  }
}
