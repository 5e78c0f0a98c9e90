import { rootLogger } from "../log/root.ts";
import { encodeMessage, type MessageDecoder } from "./message-codec.ts";
import { MessageQueue, StreamClosedError } from "./message-queue.ts";
import type { StreamMessage, StreamTransport } from "./transport.ts";

/** How each end reads what the other sends; null where that end reads nothing. */
export interface PairDecoders {
  /** The server's: the endpoint's incoming message type. */
  readonly server: MessageDecoder | null;
  /** The caller's: the endpoint's outgoing message type. */
  readonly client: MessageDecoder | null;
}

/**
 * Both ends of a stream between two services of one process. Each message goes through
 * JSON and the receiver's validation, as it would over a WebSocket, so a handler sees
 * the same values (Dates revived, invalid messages dropped and logged) either way.
 * Closing either end closes both; what was already sent can still be read.
 */
export function memoryStreamPair(decoders: PairDecoders, endpoint: string): { server: StreamTransport; client: StreamTransport } {
  const toServer = new MessageQueue<StreamMessage>();
  const toClient = new MessageQueue<StreamMessage>();
  let closed = false;
  const close = () => {
    closed = true;
    toServer.end();
    toClient.end();
  };
  const sender = (queue: MessageQueue<StreamMessage>, decode: MessageDecoder | null) => async (message: StreamMessage) => {
    if (closed) throw new StreamClosedError();
    if (!decode) return;
    try {
      queue.push(decode(encodeMessage(message)));
    } catch (err) {
      rootLogger().warn({ endpoint, err: (err as Error).message }, "stream message dropped: it does not match the endpoint's message type");
    }
  };
  return {
    server: { send: sender(toClient, decoders.client), recv: () => toServer.next(), close, fail: close },
    client: { send: sender(toServer, decoders.server), recv: () => toClient.next(), close, fail: close },
  };
}
