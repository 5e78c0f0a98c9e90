// encore.dev/pubsub: topics and subscriptions, carried by the SQL store or NATS JetStream.
export { Topic } from "./topic.ts";
export type { TopicConfig, DeliveryGuarantee, Attribute, AttributesOf } from "./topic.ts";
export { Subscription } from "./subscription.ts";
export type { SubscriptionConfig, RetryPolicy } from "./subscription.ts";
export { Publisher, TopicPerms } from "./refs.ts";
export type { DurationString } from "../types/mod.ts";
