// A process's presence on the embedded cluster outlives a restart of the server.
import { rmSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import pg from "pg";
import postgres from "postgres";
import { afterAll, expect, test } from "vitest";
import { tempDataDir } from "../../../vitest/temp-dir.ts";
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
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()",
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

test("the address handed to the app is a plain URL, and the app's own clients still carry the process's name", async () => {
  const session = await EmbeddedSession.open({ dir, durability: "disposable", connectTimeoutMs: 2000 });
  try {
    expect(session.plainUrl).toMatch(/^postgres:\/\/postgres:[^@/?]+@127\.0\.0\.1:\d+\/postgres$/);
    // A client of the app's, made as the app makes it: from the URL alone.
    const sql = postgres(session.plainUrl, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql<{ name: string }[]>`SELECT current_setting('application_name') AS name`;
      expect(row?.name).toBe(`encore-selfhost/${process.pid}`);
      expect(await ourSessions(session.plainUrl)).toBe(2); // the presence, and the app's client
    } finally {
      await sql.end();
    }
  } finally {
    await session.release();
  }
}, 60_000);

test("a connection still logging in is nobody's presence: the last process out stops the server all the same", async () => {
  const session = await EmbeddedSession.open({ dir, durability: "disposable", connectTimeoutMs: 2000 });
  const { port } = new URL(session.plainUrl);
  // A client that sent its startup message and never answers the password request, as a
  // connection of a process still starting, or one meant for another cluster, looks for a moment.
  const stalled = connect(Number(port), "127.0.0.1");
  try {
    await new Promise<void>((resolve, reject) => stalled.once("data", () => resolve()).once("error", reject).write(startupMessage("postgres")));
    const others = await session.release();
    expect(others).toEqual([]);
    expect((await startCluster({ dir, durability: "disposable" })).started).toBe(true); // it had been stopped
  } finally {
    stalled.destroy();
  }
}, 60_000);

/** PostgreSQL's startup message (protocol 3.0) for `user` on the database of the same name. */
function startupMessage(user: string): Buffer {
  const body = Buffer.concat([Buffer.from([0, 3, 0, 0]), Buffer.from(`user\0${user}\0\0`)]);
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([length, body]);
}
