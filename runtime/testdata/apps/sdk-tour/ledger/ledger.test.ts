import { ErrCode } from "encore.dev/api";
import { Decimal } from "encore.dev/types";
import { describe, expect, test } from "vitest";
import { addEntry, getAccount, type Account } from "./ledger";

/** The account once `applied` of its entries are; fails after 20 s. */
async function accountAfter(account: string, applied: number): Promise<Account> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = await getAccount({ account }).catch((err: { code?: string }) => {
      if (err.code !== ErrCode.NotFound) throw err;
      return undefined;
    });
    if (found && found.applied >= applied) return found;
    if (Date.now() > deadline) throw new Error(`account ${account}: ${found?.applied ?? 0} of ${applied} entries applied`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the ledger's ordered topic", () => {
  test("each account's entries are applied one at a time in the order they were published", async () => {
    const accounts = ["alice", "bob", "carol"];
    for (let seq = 1; seq <= 10; seq++) {
      for (const account of accounts) await addEntry({ account, seq, amount: new Decimal("0.1") });
    }
    for (const account of accounts) {
      const done = await accountAfter(account, 10);
      expect(done.outOfOrder).toBe(0);
      expect(done.balance.sub("1").toString()).toMatch(/^0(\.0+)?$/);
    }
  });

  test("an account with no entries is not found", async () => {
    await expect(getAccount({ account: "nobody" })).rejects.toMatchObject({ code: ErrCode.NotFound });
  });
});
