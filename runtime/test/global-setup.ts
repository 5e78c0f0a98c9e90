// Runs once before the suite: makes sure encore.gen/ matches the app's sources, and
// that every server the suite was told to use answers. An unreachable server fails
// the run here, with its name, rather than skipping its tests.
import pg from "pg";
import { appRoot } from "../internal/config/app-root.ts";
import { generate } from "../internal/codegen/generate.ts";

export default async function setup(): Promise<void> {
  generate(appRoot);
  const postgresUrl = process.env.TEST_DATABASE_URL?.trim();
  if (postgresUrl) await requirePostgres(postgresUrl);
  const natsUrl = process.env.TEST_NATS_URL?.trim();
  if (natsUrl) await requireNats(natsUrl);
}

async function requireNats(url: string): Promise<void> {
  const { connect } = await import("nats");
  try {
    const nc = await connect({ servers: url.split(","), timeout: 5000, maxReconnectAttempts: 0 });
    await (await nc.jetstreamManager()).getAccountInfo(); // JetStream must be on, not just NATS
    await nc.close();
  } catch (err) {
    throw new Error(`TEST_NATS_URL=${url} is unreachable or has no JetStream: ${(err as Error).message}`, { cause: err });
  }
}

async function requirePostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (err) {
    throw new Error(`TEST_DATABASE_URL=${url} is unreachable: ${(err as Error).message}`, { cause: err });
  } finally {
    await client.end().catch(() => {});
  }
}
