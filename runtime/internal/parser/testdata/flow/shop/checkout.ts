import { api } from "encore.dev/api";
import { billing, shop } from "~encore/clients";
import * as charges from "../billing/charges";
import { orderPlaced as placed } from "../events/topics";

export const ping = api({}, async (): Promise<void> => {});

export const checkout = api({}, async (): Promise<{ id: string }> => {
  const { id } = await billing.charge({ amount: 5 });
  await charges.receipts.upload(id, Buffer.from("paid"));
  // A call to itself through its own client is not a dependency.
  await shop.ping();
  await placed.publish({ id });
  return { id };
});
