// A process's presence on the embedded cluster outlives a restart of the server.
import { rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, expect, test } from "vitest";
import { tempDataDir } from "../../../test/temp-dir.ts";
import { startCluster, stopCluster } from "./cluster.ts";
import { EmbeddedSession } from "./session.ts";

const root = tempDataDir("session-test-");
const dir = path.join(root, "postgres");
afterAll(async () => {
  await stopCluster(dir);
  rmSync(root, { recursive: true, force: true });
});

/** This process's sessions on the cluster, as another process deciding whether to stop it would see them. */
async function ourSessions(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1",
      [`encore-selfhost/${process.pid}`],
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

test("the presence connection comes back by itself after the server restarts, so the process still counts as a user", async () => {
  const session = await EmbeddedSession.open({ dir, durability: "disposable", connectTimeoutMs: 2000 });
  const { url } = await startCluster({ dir, durability: "disposable" }); // joined: the address without this process's name
  expect(await ourSessions(url)).toBe(1);

  await stopCluster(dir);
  const restarted = await startCluster({ dir, durability: "disposable" });
  expect(restarted.started).toBe(true);
  let present = 0;
  for (const deadline = Date.now() + 10_000; present === 0 && Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    present = await ourSessions(restarted.url);
  }
  expect(present).toBe(1);

  await session.release(); // the last one out stops the server
  expect((await startCluster({ dir, durability: "disposable" })).started).toBe(true);
}, 60_000);
