// Runs once before the suite: makes sure encore.gen/ matches the app's sources, that
// every server the suite was told to use answers (an unreachable one fails the run
// here, with its name, rather than skipping its tests), and starts the run's
// PostgreSQL server with its template databases (test-server.ts).
import type { ProvidedContext } from "vitest";
import { appRoot } from "../internal/config/app-root.ts";
import { generate } from "../internal/codegen/generate.ts";
import { prepareTestServer, type TestDatabaseServer } from "./test-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseServer: TestDatabaseServer;
  }
}

/**
 * What setup is given: vitest 3 and 4 pass the project, vitest 1 and 2 an object with
 * `provide` and the config; both provide values to the test files with `provide`.
 */
interface SetupContext {
  provide<K extends keyof ProvidedContext>(key: K, value: ProvidedContext[K]): void;
}

// Every project of the run calls this; they share one server, kept here across calls.
const shared = globalThis as { encoreTestServer?: ReturnType<typeof prepare>; encoreTestUsers?: number };

export default async function setup(context: SetupContext): Promise<() => Promise<void>> {
  shared.encoreTestServer ??= prepare();
  shared.encoreTestUsers = (shared.encoreTestUsers ?? 0) + 1;
  const { server, teardown } = await shared.encoreTestServer;
  context.provide("databaseServer", server);
  return async () => {
    shared.encoreTestUsers = (shared.encoreTestUsers ?? 1) - 1;
    if (shared.encoreTestUsers === 0) await teardown();
  };
}

async function prepare(): ReturnType<typeof prepareTestServer> {
  const { meta } = generate(appRoot);
  const natsUrl = process.env.TEST_NATS_URL?.trim();
  if (natsUrl) await requireNats(natsUrl);
  return prepareTestServer(appRoot, meta);
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
