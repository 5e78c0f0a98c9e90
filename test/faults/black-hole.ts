// A TCP proxy that can stop forwarding, as a network that drops packets does: nothing
// is refused or reset, bytes simply stop arriving, in both directions, on the
// connections already open and on new ones. When it heals, what was sent meanwhile
// arrives late, as TCP's retransmissions deliver it once a dropping link comes back.
import net, { type Socket } from "node:net";

interface Pair {
  readonly client: Socket;
  upstream?: Socket;
}

export class BlackHoleProxy {
  #cut = false;
  readonly #pairs = new Set<Pair>();

  private constructor(
    private readonly server: net.Server,
    private readonly target: { host: string; port: number },
  ) {}

  /** A proxy on a free loopback port to `target`. */
  static async start(target: { host: string; port: number }): Promise<BlackHoleProxy> {
    const server = net.createServer((client) => proxy.accept(client));
    const proxy = new BlackHoleProxy(server, target);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Stops forwarding: bytes stay where they are, nothing is refused. */
  cut(): void {
    this.#cut = true;
    for (const { client, upstream } of this.#pairs) {
      client.pause();
      upstream?.pause();
    }
  }

  /** Forwards again, what waited first; connections accepted meanwhile reach the target now. */
  heal(): void {
    this.#cut = false;
    for (const pair of this.#pairs) {
      if (!pair.upstream) this.connect(pair);
      pair.client.resume();
      pair.upstream!.resume();
    }
  }

  async close(): Promise<void> {
    for (const { client, upstream } of this.#pairs) {
      client.destroy();
      upstream?.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    const pair: Pair = { client };
    this.#pairs.add(pair);
    client.on("error", () => {});
    client.on("close", () => {
      pair.upstream?.destroy();
      this.#pairs.delete(pair);
    });
    if (this.#cut) client.pause(); // held until the hole heals
    else this.connect(pair);
  }

  private connect(pair: Pair): void {
    const upstream = net.connect(this.target);
    pair.upstream = upstream;
    upstream.on("error", () => pair.client.destroy());
    upstream.on("close", () => pair.client.destroy());
    forward(pair.client, upstream, () => this.#cut);
    forward(upstream, pair.client, () => this.#cut);
  }
}

/** Copies `from` to `to`, with back-pressure, and passes the end on. */
function forward(from: Socket, to: Socket, cut: () => boolean): void {
  from.on("data", (chunk) => {
    if (!to.write(chunk)) from.pause();
  });
  to.on("drain", () => {
    if (!cut()) from.resume();
  });
  from.on("end", () => to.end());
}
