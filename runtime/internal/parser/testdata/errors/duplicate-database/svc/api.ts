import { SQLDatabase } from "encore.dev/storage/sqldb";

export const a = new SQLDatabase("main", { migrations: "./migrations" });
export const b = new SQLDatabase("main");
