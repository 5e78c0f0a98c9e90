import path from "node:path";
import { config } from "../../internal/config/mod.ts";
import { appMeta } from "../../internal/meta/load.ts";
import { declareSubscription } from "../../internal/pubsub/mod.ts";
import { subscriptionSpec } from "../../internal/pubsub/specs.ts";
import { compileDateReviver } from "../../internal/validation/dates.ts";
import type { DurationString } from "../types/mod.ts";
import type { Topic } from "./topic.ts";

export interface RetryPolicy {
  /** Default 10 seconds. */
  minBackoff?: DurationString;
  /** Default 10 minutes. */
  maxBackoff?: DurationString;
  /** Retries before dead-lettering: 0 or unset means 100, negative means never. */
  maxRetries?: number;
}

export interface SubscriptionConfig<Msg> {
  /** Resolving acknowledges the message; throwing retries it with backoff. */
  handler: (msg: Msg) => Promise<unknown>;
  /** Handlers running at once per instance; negative means no limit. Default 100. */
  maxConcurrency?: number;
  /** Default 30 seconds; at least 1 second. */
  ackDeadline?: DurationString;
  /** Default 7 days. */
  messageRetention?: DurationString;
  retryPolicy?: RetryPolicy;
}

/** Receives every message published on a topic, retried until handled or dead-lettered. */
export class Subscription<Msg extends object> {
  private readonly topic: Topic<Msg>;
  private readonly name: string;

  constructor(topic: Topic<Msg>, name: string, cfg: SubscriptionConfig<Msg>) {
    this.topic = topic;
    this.name = name;
    const handler = cfg.handler as (msg: unknown) => Promise<unknown>;
    // A message crosses as JSON; its handler gets Dates and Decimals where its type says so, as under Encore.
    const message = appMeta().topics.find((t) => t.name === topic.name)?.message;
    const revive = message ? compileDateReviver(message) : null;
    declareSubscription({
      spec: subscriptionSpec(topic.name, name, cfg),
      service: declaringService(name),
      handler: revive ? (msg) => handler(revive(msg)) : handler,
    });
  }
}

/**
 * The service whose folder declares the subscription, as the parser found it; currentRequest()
 * reports it. Subscription names are unique per topic only, so when two services use the same
 * name, the declaring file (from the stack: source-mapped in bundles) tells them apart.
 */
function declaringService(name: string): string {
  const meta = appMeta();
  const matches = meta.subscriptions.filter((s) => s.name === name);
  if (matches.length <= 1) return matches[0]?.service ?? "";
  const root = config().appRoot;
  const dirs = matches.map((m) => ({ service: m.service, dir: meta.services.find((s) => s.name === m.service)?.dir }));
  for (const line of (new Error().stack ?? "").split("\n")) {
    const file = /(?:file:\/\/)?(\/[^:)]+):\d+:\d+/.exec(line)?.[1];
    if (!file?.startsWith(root + path.sep)) continue;
    const rel = path.relative(root, file).split(path.sep).join("/");
    const found = dirs.find((d) => d.dir !== undefined && rel.startsWith(`${d.dir}/`));
    if (found) return found.service;
  }
  return matches[0]!.service;
}
