import { SQLDatabase } from "encore.dev/storage/sqldb";
import { secret as loadSecret } from "encore.dev/config";
import { api } from "encore.dev/api";

// Referenced, not declared: the billing database.
const billing = SQLDatabase.named("billing");

export const scratch = new SQLDatabase("scratch");

const stripe = loadSecret("StripeKey");
const mail = loadSecret("MailgunKey");

export const count = api({}, async (): Promise<{ n: number }> => {
  void billing;
  void stripe;
  void mail;
  return { n: 0 };
});
