import { Topic, type Attribute } from "encore.dev/pubsub";

export interface OrderPlaced {
  orderId: Attribute<string>;
  item: string;
  quantity: number;
}

/**
 * Every order checkout accepts, for whichever service has work to do about it. Ordered by
 * order: an order's later events (none yet) would reach each subscription after this one.
 */
export const orderPlaced = new Topic<OrderPlaced>("order-placed", {
  deliveryGuarantee: "at-least-once",
  orderingAttribute: "orderId",
});
