import { Topic } from "encore.dev/pubsub";

// Declared here, published by other services only.
export const orderPlaced = new Topic<{ id: string }>("order-placed", { deliveryGuarantee: "at-least-once" });
export const audit = new Topic<{ line: string }>("audit", { deliveryGuarantee: "at-least-once" });
