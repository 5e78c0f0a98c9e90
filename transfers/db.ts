import { SQLDatabase } from "encore.dev/storage/sqldb";

// Import jobs: their progress, and each refused row's line and reason.
export const db = new SQLDatabase("transfers", { migrations: "./migrations" });
