import type { StreamMessage, StreamTransport } from "./transport.ts";

// The objects a stream handler gets, named and shaped as encore.dev's: IterableStream for
// api.streamIn, Sink for api.streamOut, IterableSocket for api.streamInOut. Iterating ends
// when the stream closes, as the recv() loop in encore.dev's does.

// The generator holds the stream object itself, not just its transport: a handler that
// only iterates keeps its stream reachable, so it is never taken for abandoned (session.ts).
async function* messagesOf(stream: { recv(): Promise<StreamMessage> }): AsyncGenerator<StreamMessage> {
  while (true) {
    let message: StreamMessage;
    try {
      message = await stream.recv();
    } catch {
      return;
    }
    yield message;
  }
}

/** The incoming messages of an api.streamIn handler. */
export class IterableStream {
  readonly #transport: StreamTransport;

  constructor(transport: StreamTransport) {
    this.#transport = transport;
  }

  /** The next message; rejects once the client has closed the stream. */
  recv(): Promise<StreamMessage> {
    return this.#transport.recv();
  }

  [Symbol.asyncIterator](): AsyncGenerator<StreamMessage> {
    return messagesOf(this);
  }
}

/** Where an api.streamOut handler sends its messages. */
export class Sink {
  readonly #transport: StreamTransport;

  constructor(transport: StreamTransport) {
    this.#transport = transport;
  }

  /** Sends a message; rejects once the stream is closed. */
  send(message: StreamMessage): Promise<void> {
    return this.#transport.send(message);
  }

  /** Closes the stream once what was sent has gone out. */
  async close(): Promise<void> {
    this.#transport.close();
  }
}

/** Both directions, for an api.streamInOut handler. */
export class IterableSocket {
  readonly #transport: StreamTransport;

  constructor(transport: StreamTransport) {
    this.#transport = transport;
  }

  send(message: StreamMessage): Promise<void> {
    return this.#transport.send(message);
  }

  recv(): Promise<StreamMessage> {
    return this.#transport.recv();
  }

  async close(): Promise<void> {
    this.#transport.close();
  }

  [Symbol.asyncIterator](): AsyncGenerator<StreamMessage> {
    return messagesOf(this);
  }
}
