// How the app's parts are linked, for the catalog and the flow diagram: what the parser
// finds (who calls, publishes to or uses what), read defensively.
// TODO(lead): ServiceMeta.calls, topics' publishers, subscriptions' topic and databases' and
// buckets' usedBy come with the parser's new metadata (h/parser); once merged, read them
// from the typed AppMeta and drop these casts.
import type { BucketMeta, DatabaseMeta, PubSubMeta, ServiceMeta } from "../meta/types.ts";
import { declaredSubscriptions } from "../pubsub/mod.ts";

/** Services it calls through ~encore/clients. */
export function serviceCalls(service: ServiceMeta): readonly string[] {
  return (service as { calls?: readonly string[] }).calls ?? [];
}

/** Services that publish to the topic. */
export function topicPublishers(topic: PubSubMeta): readonly string[] {
  return (topic as { publishers?: readonly string[] }).publishers ?? [];
}

/** The subscription's topic: from the metadata, else from the subscription as the app declared it when it loaded. */
export function subscriptionTopic(subscription: PubSubMeta): string | null {
  const fromMeta = (subscription as { topic?: string }).topic;
  if (fromMeta) return fromMeta;
  return declaredSubscriptions().find((s) => s.name === subscription.name && s.service === subscription.service)?.topic ?? null;
}

/** Services that use the database or bucket: the declaring one, and those the parser found using it. */
export function resourceUsers(resource: DatabaseMeta | BucketMeta): readonly string[] {
  const found = (resource as { usedBy?: readonly string[] }).usedBy ?? [];
  return [...new Set([resource.service, ...found])];
}
