// The start command as a user runs it: a real process, real signals, a restart.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { dropServerDatabases, startApp, type StartFailure } from "../runtime/test/process.ts";

const dataDir = mkdtempSync(path.join(tmpdir(), "start-test-"));
const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}proc_`;
const env = { DATA_DIR: dataDir, PGLITE_STORAGE: "disk", DATABASE_NAME_PREFIX: prefix };

afterAll(() => dropServerDatabases(prefix));

describe("npm start", () => {
  test("serves, stops cleanly on SIGTERM, and keeps data across a restart", async () => {
    const first = await startApp(env);
    const created = (await (
      await fetch(`${first.url}/url`, { method: "POST", body: '{"url":"https://encore.dev"}' })
    ).json()) as { id: string; url: string };
    expect(created).toMatchObject({ url: "https://encore.dev" });
    expect(first.output()).toMatch(process.env.DATABASE_URL ? /PostgreSQL at/ : /embedded PGlite under/);
    expect(first.output()).toContain('"cron":["cleanup-stale-urls","daily-report"]');
    if (!process.env.DATABASE_URL) {
      // Two processes on one embedded database would corrupt it: the second is refused.
      const clash = (await startApp(env).catch((e: unknown) => e)) as StartFailure;
      expect(clash.output).toMatch(new RegExp(`embedded database under .* is in use by process ${first.child.pid}`));
    }
    expect(await first.stop("SIGTERM")).toBe(0);
    expect(first.output()).toMatch(/shutting down/);

    const second = await startApp({ ...env, CRON: "off" });
    try {
      expect(second.output()).toContain('"cron":"off (CRON=off)"');
      expect(await (await fetch(`${second.url}/url/${created.id}`)).json()).toEqual(created);
    } finally {
      expect(await second.stop("SIGINT")).toBe(0);
    }
  }, 120_000); // up to three server processes, each opening its databases

  test("a bad setting stops start-up with a message naming the variable", async () => {
    const failure = (await startApp({ ...env, PORT: "eighty" }).catch((e: unknown) => e)) as StartFailure;
    expect(failure.exitCode).toBe(1);
    expect(failure.output).toMatch(/start-up failed: invalid configuration: PORT must be an integer/);
  });

  test("in production the local object store will not start without OBJECTS_SIGNING_KEY", async () => {
    const failure = (await startApp({ ...env, NODE_ENV: "production" }).catch((e: unknown) => e)) as StartFailure;
    expect(failure.exitCode).toBe(1);
    expect(failure.output).toMatch(/start-up failed: invalid configuration: OBJECTS_SIGNING_KEY must be set in production/);
  });
});
