import { headers, type JetStreamClient, type JetStreamManager, type JsMsg, type StoredMsg } from "nats";
import type { NatsNames } from "./nats-names.ts";
import { apiErrorCode } from "./nats-streams.ts";
import type { Delivery, SubscriptionSpec } from "./provider.ts";

/** The original message id; on redriven messages and dead letters (Nats-Msg-Id is taken by de-duplication). */
export const messageIdHeader = "Encore-Msg-Id";
/** When the message was first published: redriving stores it again, with a new stream timestamp. */
export const publishedAtHeader = "Encore-Published-At";
/** The publisher's W3C traceparent, kept through dead-lettering and redrives. */
export const traceparentHeader = "traceparent";
const errorHeader = "Encore-Error";
const attemptsHeader = "Encore-Attempts";
/** On an ordered topic's dead letter: the partition it came from, and goes back to when redriven. */
const partitionHeader = "Encore-Partition";

/** A MsgRequest the nats.js types do not list; servers since 2.9 answer it. */
interface NextMsgRequest {
  seq: number;
  next_by_subj: string;
}

/** getMessage finding nothing: JetStream's "no message found". */
const noMessageFound = 10037;
/** deleteMessage failing; "no message found" among its causes. */
const messageDeleteFailed = 10057;
const maxErrorTextLength = 2000;

/**
 * Dead letters of a topic live in their own stream (see nats-streams.ts), one
 * subject per subscription, payload unchanged and the story in headers.
 */
export class NatsDeadLetters {
  constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly names: NatsNames,
  ) {}

  /** Stores a delivery whose retries are spent; resolves once the store has acknowledged it. */
  async add(spec: SubscriptionSpec, msg: JsMsg, delivery: Delivery, error: unknown): Promise<void> {
    const h = headers();
    h.set(messageIdHeader, delivery.messageId);
    h.set(publishedAtHeader, delivery.publishedAt.toISOString());
    h.set(attemptsHeader, String(delivery.attempt));
    h.set(errorHeader, errorText(error));
    if (delivery.traceparent !== undefined) h.set(traceparentHeader, delivery.traceparent);
    const partition = this.names.partitionOf(msg.subject);
    if (partition !== undefined) h.set(partitionHeader, String(partition));
    // Keyed by the stream sequence, not the message id: if term() is lost and the
    // message fails again it is not stored twice, yet a redriven copy (new
    // sequence) can be dead-lettered again.
    const msgID = `${this.names.consumer(spec.name)}:${msg.seq}`;
    await this.js.publish(this.names.deadSubject(spec.topic, spec.name), msg.data, { headers: h, msgID });
  }

  /** Dead letters per subject of the topic's dead-letter stream. */
  async counts(topic: string): Promise<Readonly<Record<string, number>>> {
    const info = await this.jsm.streams.info(this.names.deadStream(topic), {
      subjects_filter: this.names.deadSubjects(topic),
    });
    return info.state.subjects ?? {};
  }

  /** Sends one subscription's dead letters back to it alone, oldest first; resolves to how many moved. */
  async redrive(topic: string, subscription: string): Promise<number> {
    const stream = this.names.deadStream(topic);
    const query: NextMsgRequest = { seq: 1, next_by_subj: this.names.deadSubject(topic, subscription) };
    let moved = 0;
    for (let dead = await this.next(stream, query); dead; dead = await this.next(stream, query)) {
      const h = headers();
      h.set(messageIdHeader, dead.header.get(messageIdHeader));
      h.set(publishedAtHeader, dead.header.get(publishedAtHeader));
      const traceparent = dead.header.get(traceparentHeader);
      if (traceparent) h.set(traceparentHeader, traceparent);
      const partition = dead.header.get(partitionHeader);
      const subject = partition
        ? this.names.partitionRedriveSubject(topic, subscription, Number(partition))
        : this.names.redriveSubject(topic, subscription);
      // Two concurrent redrives (or one retried after a crash) store each letter once.
      const ack = await this.js.publish(subject, dead.data, {
        headers: h,
        msgID: `redrive:${stream}:${dead.seq}`,
      });
      await this.remove(stream, dead.seq);
      if (!ack.duplicate) moved++;
      query.seq = dead.seq + 1;
    }
    return moved;
  }

  private async next(stream: string, query: NextMsgRequest): Promise<StoredMsg | undefined> {
    try {
      return await this.jsm.streams.getMessage(stream, query);
    } catch (err) {
      if (apiErrorCode(err) === noMessageFound) return undefined;
      throw err;
    }
  }

  private async remove(stream: string, seq: number): Promise<void> {
    try {
      await this.jsm.streams.deleteMessage(stream, seq, false);
    } catch (err) {
      // A concurrent redrive removed it first.
      const gone = apiErrorCode(err) === messageDeleteFailed && /no message found/i.test(String(err));
      if (!gone) throw err;
    }
  }
}

/** One line (header values cannot hold line breaks), bounded. */
function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.replace(/[\r\n]+/g, " ").slice(0, maxErrorTextLength);
}
