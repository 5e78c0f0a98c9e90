export { SQLDatabase, Transaction, Connection } from "./database.ts";
export type { SQLDatabaseConfig, SQLMigrationsConfig, Primitive, Row as ResultRow } from "./database.ts";
