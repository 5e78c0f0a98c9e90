import { Topic } from "encore.dev/pubsub";

/** Published when an order is placed. */
export interface OrderCreated {
  orderId: string;
  customerId: string;
  total: number;
  createdAt: Date;
}

export const orderCreated = new Topic<OrderCreated>("order-created", { deliveryGuarantee: "at-least-once" });
