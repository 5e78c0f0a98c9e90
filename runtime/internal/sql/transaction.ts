import type { SqlDriver, SqlTransaction } from "./driver.ts";

/** Runs `work` in a transaction: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(driver: SqlDriver, work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
  const tx = await driver.begin();
  let result: T;
  try {
    result = await work(tx);
  } catch (err) {
    await tx.rollback().catch(() => {}); // the original error is the one worth reporting
    throw err;
  }
  await tx.commit();
  return result;
}
