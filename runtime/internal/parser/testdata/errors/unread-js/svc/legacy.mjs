import { Topic } from "encore.dev/pubsub";

export const legacy = new Topic("legacy", { deliveryGuarantee: "at-least-once" });
