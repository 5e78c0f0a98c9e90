import { Topic } from "encore.dev/pubsub";

export interface OrderPlaced {
  orderId: string;
  item: string;
  quantity: number;
}

/** Every order checkout accepts, for whichever service has work to do about it. */
export const orderPlaced = new Topic<OrderPlaced>("order-placed", {
  deliveryGuarantee: "at-least-once",
});
