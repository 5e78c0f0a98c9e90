import { SQLDatabase } from "encore.dev/storage/sqldb";

// The audit log of the administrators' actions. What the actions change lives with the
// services that own it: links and banned hosts in url, accounts in users.
export const db = new SQLDatabase("moderation", { migrations: "./migrations" });
