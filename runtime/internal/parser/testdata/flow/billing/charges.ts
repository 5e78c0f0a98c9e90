import { api } from "encore.dev/api";
import { SQLDatabase } from "encore.dev/storage/sqldb";
import { Bucket } from "encore.dev/storage/objects";

export const db = new SQLDatabase("charges");
export const receipts = new Bucket("receipts");

// Calls nobody: it only uses what it declares.
export const charge = api({}, async (p: { amount: number }): Promise<{ id: string }> => {
  await db.exec`INSERT INTO charges (amount) VALUES (${p.amount})`;
  return { id: "c1" };
});
