// A nats-server of the test's own (JetStream, loopback, a store in a temporary folder),
// so stopping it disturbs nobody else's messages.
import { existsSync } from "node:fs";
import { spawnCommand, whenLogged, type Spawned } from "../../runtime/test/command.ts";
import { closedPort } from "../../runtime/test/closed-port.ts";

export const natsServerBinary = "/usr/sbin/nats-server";

export interface NatsServer {
  readonly url: string;
  /** Kills it (SIGKILL: a crash, not a goodbye to its clients). */
  kill(): Promise<void>;
  /** Starts it again on the same port and store. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts nats-server on a free port with its JetStream store in `storeDir`; fails naming the binary when it is missing. */
export async function startNatsServer(storeDir: string): Promise<NatsServer> {
  if (!existsSync(natsServerBinary)) {
    throw new Error(`${natsServerBinary} is missing: the NATS fault case runs a nats-server of its own (Debian: apt-get install nats-server)`);
  }
  const port = await closedPort();
  const launch = async (): Promise<Spawned> => {
    const spawned = spawnCommand(natsServerBinary, ["-js", "-a", "127.0.0.1", "-p", String(port), "-sd", storeDir], process.cwd(), process.env);
    await whenLogged(spawned, /Server is (ready)/, "ready", 20_000);
    return spawned;
  };
  let current: Spawned | undefined = await launch();
  return {
    url: `nats://127.0.0.1:${port}`,
    kill: async () => {
      await current?.stop("SIGKILL");
      current = undefined;
    },
    restart: async () => {
      current = await launch();
    },
    stop: async () => {
      await current?.stop("SIGTERM");
      current = undefined;
    },
  };
}
