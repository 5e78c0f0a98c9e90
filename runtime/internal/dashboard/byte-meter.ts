import { Socket } from "node:net";

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
  private current: Socket | null = null;

  constructor(private readonly limit: number) {}

  /** A new socket for node-postgres to connect (its `stream` option), counted from its first byte. */
  readonly socket = (): Socket => {
    const socket = new Socket();
    socket.on("data", (chunk: Buffer) => {
      this.received += chunk.length;
      if (this.received > this.limit) this.stop("bytes");
    });
    this.current = socket;
    return socket;
  };

  /** Ends the connection now: the server sees it closed, and ends the session and its statement. */
  stop(why: "bytes" | "deadline"): void {
    this.cut ??= why;
    this.current?.destroy();
  }
}
