import { SQLDatabase } from "encore.dev/storage/sqldb";

// Webhooks, their deliveries and each delivery's attempts.
export const db = new SQLDatabase("webhooks", { migrations: "./migrations" });
