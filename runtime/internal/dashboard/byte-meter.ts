import { Socket } from "node:net";
import type { Duplex } from "node:stream";

/**
 * Counts the bytes a client receives on its sockets, and cuts the connection once they
 * pass `limit`: node-postgres keeps a message until it has all of it, so a single huge
 * row (or error message) would otherwise be held whole in this process's memory. What
 * is held stays below the limit plus one read from the socket (64 KiB).
 */
export class ByteMeter {
  received = 0;
  /** Why the connection was cut, once it was. */
  cut: "bytes" | "deadline" | null = null;
  private current: Duplex | null = null;

  constructor(private readonly limit: number) {}

  /** A new socket for node-postgres to connect (its `stream` option), counted from its first byte. */
  readonly socket = (): Socket => {
    const socket = new Socket();
    this.watch(socket);
    return socket;
  };

  /**
   * Counts on the stream the client reads from now: over TLS (sslmode), node-postgres
   * reads from a TLS socket wrapped around the first one, which then no longer tells
   * of what it receives.
   */
  follow(stream: Duplex): void {
    if (stream !== this.current) this.watch(stream);
  }

  private watch(stream: Duplex): void {
    stream.on("data", (chunk: Buffer) => {
      this.received += chunk.length;
      if (this.received > this.limit) this.stop("bytes");
    });
    this.current = stream;
  }

  /** Ends the connection now: the server sees it closed, and ends the session and its statement. */
  stop(why: "bytes" | "deadline"): void {
    this.cut ??= why;
    this.current?.destroy();
  }
}
