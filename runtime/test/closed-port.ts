import { createServer } from "node:net";
import pg from "pg";

/** A loopback port nothing listens on: connecting to it is refused at once. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A PostgreSQL URL on a closed port: what a client sees while the server is stopped. */
export async function stoppedServerUrl(): Promise<string> {
  return `postgres://postgres@127.0.0.1:${await closedPort()}/postgres`;
}

/** The error node-postgres gives when the server is not running (ECONNREFUSED). */
export async function refusedConnection(): Promise<Error> {
  const client = new pg.Client({ connectionString: await stoppedServerUrl() });
  try {
    await client.connect();
  } catch (err) {
    return err as Error;
  }
  await client.end();
  throw new Error("a connection to a closed port was accepted");
}
