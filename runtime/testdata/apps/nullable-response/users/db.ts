import { SQLDatabase } from "encore.dev/storage/sqldb";

// Encore creates the database and runs ./migrations before the service serves requests.
export const db = new SQLDatabase("users", { migrations: "./migrations" });
