// The start command as a user runs it: a real process, real signals, a restart.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, test } from "vitest";
import { appRoot } from "../runtime/internal/config/app-root.ts";

const dataDir = mkdtempSync(path.join(tmpdir(), "start-test-"));
const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}proc_`;

interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
}

function startApp(env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--import", "./runtime/loader/register.mjs", "runtime/cli/start.ts"],
    {
      cwd: appRoot,
      env: { ...process.env, PORT: "0", DATA_DIR: dataDir, PGLITE_STORAGE: "disk", LOG_LEVEL: "info", DATABASE_NAME_PREFIX: prefix, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout!.on("data", (c) => (output += c));
  child.stderr!.on("data", (c) => (output += c));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 60 s:\n${output}`)), 60_000);
    child.stdout!.on("data", () => {
      const port = /listening on http:\/\/localhost:(\d+)/.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ child, url: `http://127.0.0.1:${port}`, output: () => output });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`exited with ${code} before listening:\n${output}`), { exitCode: code, output }));
    });
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

afterAll(async () => {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${prefix}urlb" WITH (FORCE)`);
  await admin.end();
});

describe("npm start", () => {
  test("serves, stops cleanly on SIGTERM, and keeps data across a restart", async () => {
    const first = await startApp();
    const created = (await (
      await fetch(`${first.url}/url`, { method: "POST", body: '{"url":"https://encore.dev"}' })
    ).json()) as { id: string; url: string };
    expect(created).toMatchObject({ url: "https://encore.dev" });
    expect(first.output()).toMatch(process.env.DATABASE_URL ? /PostgreSQL at/ : /embedded PGlite under/);

    const exited = exitOf(first.child);
    first.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(first.output()).toMatch(/shutting down/);

    const second = await startApp();
    try {
      const res = await fetch(`${second.url}/url/${created.id}`);
      expect(await res.json()).toEqual(created);
    } finally {
      const stopped = exitOf(second.child);
      second.child.kill("SIGINT");
      expect(await stopped).toBe(0);
    }
  });

  test("a bad setting stops start-up with a message naming the variable", async () => {
    const failure = await startApp({ PORT: "eighty" }).catch((e: { exitCode: number; output: string }) => e);
    expect(failure).toMatchObject({ exitCode: 1 });
    expect((failure as { output: string }).output).toMatch(/start-up failed: invalid configuration: PORT must be an integer/);
  });
});
