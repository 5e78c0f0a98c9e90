import { Publisher, Subscription } from "encore.dev/pubsub";
import { SQLDatabase } from "encore.dev/storage/sqldb";
import { Bucket } from "encore.dev/storage/objects";
import * as clients from "~encore/clients";
import * as topics from "../events/topics";
import { orderPlaced } from "../events/topics";

const charges = SQLDatabase.named("charges");
const receipts = Bucket.named("receipts");
// A reference with publish permission makes the service a publisher, as in Encore.
const auditLog = topics.audit.ref<Publisher<{ line: string }>>();

export const sendReceipt = new Subscription(orderPlaced, "send-receipt", {
  handler: async ({ id }) => {
    await charges.queryRow`SELECT 1`;
    await receipts.download(id);
    await clients.billing.charge({ amount: 0 });
    await auditLog.publish({ line: `sent ${id}` });
  },
});

export const log = new Subscription(topics.audit, "log", { handler: async () => {} });
