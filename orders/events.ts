import { Topic } from "encore.dev/pubsub";

/** Published when an order is placed (SPEC 6.3 leaves the payload open; this is ours). */
export interface OrderCreated {
  orderId: string;
  customerId: string;
  total: number;
  createdAt: Date;
}

export const orderCreated = new Topic<OrderCreated>("order-created", { deliveryGuarantee: "at-least-once" });
