import { SQLDatabase } from "encore.dev/storage/sqldb";
import { secret } from "encore.dev/config";

export const db = new SQLDatabase("billing", { migrations: "./migrations" });

const stripeKey = secret("StripeKey");

export function key(): string {
  return stripeKey();
}
