import { createHash } from "node:crypto";

// Where the NATS provider keeps things, all under one prefix:
//
//   stream  <prefix>_<topic>        subjects <prefix>.topic.<topic>.>
//     <prefix>.topic.<topic>.msg                 every publish: all subscriptions get it
//     <prefix>.topic.<topic>.redrive.<sub>       a dead letter sent back to one subscription
//   durable consumer <sub> on it, filtering <prefix>.topic.<topic>.>
// or, for a topic with an orderingAttribute, its messages spread over `orderingPartitions`
// partitions by a hash of their ordering key:
//     <prefix>.topic.<topic>.key.<p>.msg             every publish of the keys in partition p
//     <prefix>.topic.<topic>.key.<p>.redrive.<sub>   a dead letter of partition p sent back
//   durable consumers <sub>_p<p> on it, one per partition, filtering <prefix>.topic.<topic>.key.<p>.>
//   stream  <prefix>_dead_<topic>   subjects <prefix>.dead.<topic>.>
//     <prefix>.dead.<topic>.<sub>                that subscription's dead letters
//
// The second subject token ("topic" / "dead") keeps the two kinds of stream from
// overlapping whatever a topic is called, and the prefix being one whole token
// means one prefix's subjects never match another's.

/** Names and subjects for one stream prefix. */
export interface NatsNames {
  readonly prefix: string;
  stream(topic: string): string;
  deadStream(topic: string): string;
  /** What the topic's stream stores and each of its consumers filters. */
  topicSubjects(topic: string): string;
  publishSubject(topic: string): string;
  redriveSubject(topic: string, subscription: string): string;
  deadSubjects(topic: string): string;
  deadSubject(topic: string, subscription: string): string;
  consumer(subscription: string): string;
  /** For a message on a topic's stream: the subscription (its consumer name) it is addressed to, or undefined for everyone. */
  addressee(subject: string): string | undefined;
  /** Ordered topics: what partition `p`'s consumers filter. */
  partitionSubjects(topic: string, p: number): string;
  partitionPublishSubject(topic: string, p: number): string;
  partitionRedriveSubject(topic: string, subscription: string, p: number): string;
  partitionConsumer(subscription: string, p: number): string;
  /** For a message on an ordered topic's stream: its partition, or undefined on an unordered topic. */
  partitionOf(subject: string): number | undefined;
}

/**
 * How many partitions an ordered topic's keys are spread over: how many keys of one
 * subscription can be handled at once, across all instances. Each partition is a
 * consumer that lets one message at a time be unacknowledged (max_ack_pending 1), so
 * keys hashed to one partition wait on each other. Fixed: publishers and subscribers
 * of every version must agree on it.
 */
export const orderingPartitions = 16;

/** The partition of an ordering key: a stable hash, the same in every instance. */
export function partitionOfKey(key: string): number {
  return createHash("sha256").update(key).digest().readUInt32BE(0) % orderingPartitions;
}

export function natsNames(streamPrefix: string): NatsNames {
  // Underscores are allowed in the prefix (mod.ts builds "encore_<db prefix>")
  // but not in topic or subscription tokens, so "<prefix>_<topic>" can never
  // equal "<prefix>_dead_<other topic>".
  const prefix = token(streamPrefix, /[^A-Za-z0-9_-]/g);
  const name = (s: string) => token(s, /[^A-Za-z0-9-]/g);
  const topicBase = (topic: string) => `${prefix}.topic.${name(topic)}`;
  return Object.freeze({
    prefix,
    stream: (topic: string) => `${prefix}_${name(topic)}`,
    deadStream: (topic: string) => `${prefix}_dead_${name(topic)}`,
    topicSubjects: (topic: string) => `${topicBase(topic)}.>`,
    publishSubject: (topic: string) => `${topicBase(topic)}.msg`,
    redriveSubject: (topic: string, subscription: string) => `${topicBase(topic)}.redrive.${name(subscription)}`,
    deadSubjects: (topic: string) => `${prefix}.dead.${name(topic)}.>`,
    deadSubject: (topic: string, subscription: string) => `${prefix}.dead.${name(topic)}.${name(subscription)}`,
    consumer: name,
    addressee(subject: string) {
      // <prefix>.topic.<topic>.redrive.<sub> or <prefix>.topic.<topic>.key.<p>.redrive.<sub>:
      // the prefix and names are single tokens.
      const tokens = subject.split(".");
      if (tokens[3] === "redrive") return tokens[4];
      return tokens[3] === "key" && tokens[5] === "redrive" ? tokens[6] : undefined;
    },
    partitionSubjects: (topic: string, p: number) => `${topicBase(topic)}.key.${p}.>`,
    partitionPublishSubject: (topic: string, p: number) => `${topicBase(topic)}.key.${p}.msg`,
    partitionRedriveSubject: (topic: string, subscription: string, p: number) => `${topicBase(topic)}.key.${p}.redrive.${name(subscription)}`,
    // "_" never appears in a subscription's token, so this names no other subscription's consumer.
    partitionConsumer: (subscription: string, p: number) => `${name(subscription)}_p${p}`,
    partitionOf(subject: string) {
      const tokens = subject.split(".");
      return tokens[3] === "key" ? Number(tokens[4]) : undefined;
    },
  });
}

/**
 * `s` with every character `disallowed` matches replaced; when anything was
 * replaced, a hash of the original is appended so that "a.b" and "a-b" stay
 * apart. Encore names (kebab-case) come through unchanged.
 */
function token(s: string, disallowed: RegExp): string {
  if (s === "") throw new Error("NATS pub/sub: an empty name cannot become a stream, subject or consumer name");
  const safe = s.replace(disallowed, "-");
  if (safe === s) return s;
  return `${safe}-${createHash("sha256").update(s).digest("hex").slice(0, 8)}`;
}
