import { SQLDatabase } from "encore.dev/storage/sqldb";

// Workspaces, their members with their roles, and invitations to join them.
export const db = new SQLDatabase("workspaces", { migrations: "./migrations" });
