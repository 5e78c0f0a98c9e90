import type { AppMeta } from "../meta/types.ts";
import type { Flow } from "./api.ts";
import { resourceUsers } from "./meta-links.ts";

type Edge = Flow["edges"][number];
type Node = Flow["nodes"][number];

/** GET /api/flow: services, topics, databases, buckets and cron jobs, and how they are linked. */
export function flow(meta: AppMeta): Flow {
  const nodes: Node[] = [
    ...meta.services.map((s) => node("service", s.name)),
    ...meta.topics.map((t) => node("topic", t.name)),
    ...meta.databases.map((d) => node("database", d.name)),
    ...meta.buckets.map((b) => node("bucket", b.name)),
    ...meta.cronJobs.map((j) => ({ ...node("cron", j.name), label: j.title ?? j.name })),
  ];
  const ids = new Set(nodes.map((n) => n.id));
  const edges = new Map<string, Edge>();
  const add = (edge: Edge) => {
    // Both ends must be nodes: a name the metadata does not declare would dangle.
    if (!ids.has(edge.from) || !ids.has(edge.to)) return;
    edges.set(`${edge.from}\0${edge.to}\0${edge.kind}\0${edge.label ?? ""}`, edge);
  };
  for (const service of meta.services) {
    for (const callee of service.calls) add({ from: `service:${service.name}`, to: `service:${callee}`, kind: "calls" });
  }
  for (const topic of meta.topics) {
    for (const publisher of topic.publishers) add({ from: `service:${publisher}`, to: `topic:${topic.name}`, kind: "publishes" });
  }
  for (const subscription of meta.subscriptions) {
    add({ from: `topic:${subscription.topic}`, to: `service:${subscription.service}`, kind: "subscribes", label: subscription.name });
  }
  for (const database of meta.databases) {
    for (const user of resourceUsers(database)) add({ from: `service:${user}`, to: `database:${database.name}`, kind: "uses" });
  }
  for (const bucket of meta.buckets) {
    for (const user of resourceUsers(bucket)) add({ from: `service:${user}`, to: `bucket:${bucket.name}`, kind: "uses" });
  }
  for (const job of meta.cronJobs) {
    add({ from: `cron:${job.name}`, to: `service:${job.endpoint.service}`, kind: "schedules", label: job.endpoint.name });
  }
  return { nodes, edges: [...edges.values()] };
}

function node(kind: Node["kind"], name: string): Node {
  return { id: `${kind}:${name}`, kind, label: name };
}
