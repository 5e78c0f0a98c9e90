import { Subscription, Topic } from "encore.dev/pubsub";

export const signups = new Topic<{ email: string }>("signups", { deliveryGuarantee: "at-least-once" });

// A subscription makes its folder a service too, and the topic beside it belongs to it.
export const welcome = new Subscription(signups, "welcome", { handler: async () => {} });
