import type { WebSocket } from "ws";
import { rootLogger } from "../log/root.ts";
import { encodeMessage, type MessageDecoder } from "./message-codec.ts";
import { MessageQueue, StreamClosedError } from "./message-queue.ts";
import type { StreamMessage, StreamTransport } from "./transport.ts";

/** Close codes (RFC 6455, section 7.4.1). */
export const CloseCode = {
  normal: 1000,
  goingAway: 1001,
  internalError: 1011,
} as const;

/**
 * A stream carried by an accepted WebSocket. Text and binary frames alike hold one JSON
 * message. A message that does not match the endpoint's incoming type is logged and
 * dropped, and the stream goes on, as in Encore's runtime; so is any message sent to an
 * api.streamOut endpoint, which reads none.
 */
export function websocketTransport(ws: WebSocket, decode: MessageDecoder | null, endpoint: string): StreamTransport {
  const incoming = new MessageQueue<StreamMessage>();
  let closing = false;
  ws.on("message", (data) => {
    if (!decode) return;
    try {
      // With ws's default binaryType, every frame arrives as one Buffer.
      incoming.push(decode((data as Buffer).toString("utf8")));
    } catch (err) {
      rootLogger().warn({ endpoint, err: (err as Error).message }, "stream message dropped: it does not match the endpoint's message type");
    }
  });
  ws.on("close", () => {
    closing = true;
    incoming.end();
  });
  // A connection reset: "close" follows, which is all that matters here.
  ws.on("error", () => {});

  const closeWith = (code: number, reason: string) => {
    if (closing) return;
    closing = true;
    incoming.end(); // what already arrived can still be read
    ws.close(code, reason);
  };
  return {
    send: (message) =>
      new Promise<void>((resolve, reject) => {
        if (closing || ws.readyState !== ws.OPEN) return reject(new StreamClosedError());
        ws.send(encodeMessage(message), (err) => (err ? reject(new StreamClosedError()) : resolve()));
      }),
    recv: () => incoming.next(),
    close: () => closeWith(CloseCode.normal, ""),
    fail: () => closeWith(CloseCode.internalError, "internal error"),
  };
}

/** For shutdown: closes an accepted WebSocket, whatever stream runs on it. */
export function closeGoingAway(ws: WebSocket): void {
  ws.close(CloseCode.goingAway, "server shutting down");
}
