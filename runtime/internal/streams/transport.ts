/** One message on a stream: a JSON object. */
export type StreamMessage = Record<string, unknown>;

/**
 * One end of a stream, whatever carries it (a WebSocket, or memory for a call between
 * services). The objects handlers and callers get are built on this.
 */
export interface StreamTransport {
  /** Sends a message; rejects with StreamClosedError once the stream is closed. */
  send(message: StreamMessage): Promise<void>;
  /** The next incoming message, validated; rejects with StreamClosedError once the stream is closed and drained. */
  recv(): Promise<StreamMessage>;
  /** Ends the stream normally, after what was sent; again does nothing. */
  close(): void;
  /** Ends the stream because its handler failed; does nothing once closed. */
  fail(): void;
}
