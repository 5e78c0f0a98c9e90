import { api, APIError } from "encore.dev/api";
import { Subscription } from "encore.dev/pubsub";
import { SQLDatabase } from "encore.dev/storage/sqldb";
import { Decimal } from "encore.dev/types";
import { entries } from "./topic";

const db = new SQLDatabase("ledger", { migrations: "./migrations" });

export interface EntryInput {
  account: string;
  seq: number;
  amount: Decimal;
}

/** Records an entry; it is applied to the account's balance by the subscription, in order. */
export const addEntry = api(
  { expose: true, method: "POST", path: "/ledger/entries" },
  async ({ account, seq, amount }: EntryInput): Promise<{ messageId: string }> => {
    const messageId = await entries.publish({ account, seq, amount, madeAt: new Date() });
    return { messageId };
  },
);

// A pause between reading and writing the balance: were two entries of one account handled at
// once, or a later one first, the balance or the order check below would show it.
const _ = new Subscription(entries, "apply-entry", {
  maxConcurrency: 8,
  handler: async ({ account, seq, amount, madeAt }) => {
    const row = await db.queryRow<{ balance: string; last_seq: number }>`
      SELECT balance::text, last_seq FROM accounts WHERE account = ${account}`;
    await new Promise((resolve) => setTimeout(resolve, 5));
    // amount is a Decimal and madeAt a Date, as the message's type says: they were revived.
    const balance = amount.add(row?.balance ?? "0");
    if (madeAt.getTime() > Date.now()) throw new Error(`entry ${seq} of ${account} is from the future`);
    const lastSeq = row?.last_seq ?? 0;
    // At-least-once: an entry already applied is not applied twice.
    if (seq <= lastSeq) return;
    const outOfOrder = seq === lastSeq + 1 ? 0 : 1;
    await db.exec`
      INSERT INTO accounts (account, balance, last_seq, out_of_order)
      VALUES (${account}, ${balance.toString()}::numeric, ${seq}, ${outOfOrder})
      ON CONFLICT (account) DO UPDATE
      SET balance = EXCLUDED.balance, last_seq = EXCLUDED.last_seq,
          out_of_order = accounts.out_of_order + EXCLUDED.out_of_order`;
  },
});

export interface Account {
  account: string;
  balance: Decimal;
  applied: number;
  outOfOrder: number;
}

/** An account's balance and how many of its entries were applied. */
export const getAccount = api(
  { expose: true, method: "GET", path: "/ledger/accounts/:account" },
  async ({ account }: { account: string }): Promise<Account> => {
    const row = await db.queryRow<{ balance: string; last_seq: number; out_of_order: number }>`
      SELECT balance::text, last_seq, out_of_order FROM accounts WHERE account = ${account}`;
    if (!row) throw APIError.notFound(`no entries for account ${account} yet`);
    return { account, balance: new Decimal(row.balance), applied: row.last_seq, outOfOrder: row.out_of_order };
  },
);
