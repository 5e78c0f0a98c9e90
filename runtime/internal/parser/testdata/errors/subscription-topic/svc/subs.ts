import { Subscription, type Topic } from "encore.dev/pubsub";

// Which topic this subscribes to is known only when it runs.
export function subscribe(topic: Topic<{ id: string }>): Subscription<{ id: string }> {
  return new Subscription(topic, "sub", { handler: async () => {} });
}
