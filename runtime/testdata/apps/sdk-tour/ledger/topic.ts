import { Topic, type Attribute } from "encore.dev/pubsub";
import type { Decimal } from "encore.dev/types";

export interface LedgerEntry {
  /** Entries of one account are handled one at a time, in the order they were published. */
  account: Attribute<string>;
  /** 1, 2, 3… per account, as the client numbered them. */
  seq: number;
  /** Crosses as its exact text; the handler gets a Decimal again. */
  amount: Decimal;
  madeAt: Date;
}

export const entries = new Topic<LedgerEntry>("ledger-entries", {
  deliveryGuarantee: "at-least-once",
  orderingAttribute: "account",
});
