import { db } from "../billing/charges";

// Outside every service: a use here belongs to no service.
export async function count(): Promise<number> {
  return (await db.queryRow<{ n: number }>`SELECT count(*) AS n FROM charges`)?.n ?? 0;
}
