// Where the embedded cluster lives. Under root the server runs as the account
// "postgres", which cannot enter a private folder (a clone in /root, mode 0700): the
// cluster of an app there lives in /var/lib/encore-selfhost instead. Anyone else's
// cluster stays in DATA_DIR. The root cases make real clusters there and remove them.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, rmdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { startCluster, stopCluster } from "./cluster.ts";
import { clusterHome, prepareSharedHome, sharedClusterDir, sharedClustersDir } from "./location.ts";
import { runningPostmaster } from "./postmaster.ts";

const asRoot = process.getuid?.() === 0;
const sharedExisted = existsSync(sharedClustersDir);
const folders: string[] = [];
const clusters: string[] = [];

/** A cluster folder asked for below a folder of mode 0700 (mkdtemp's), as in /root/app/.data/postgres. */
function privateClusterDir(): string {
  const root = mkdtempSync(path.join(tmpdir(), "private-"));
  folders.push(root);
  clusters.push(path.join(root, "app", ".data", "postgres"));
  return clusters.at(-1)!;
}

afterEach(async () => {
  for (const dir of clusters.splice(0)) {
    await stopCluster(dir);
    rmSync(path.dirname(sharedClusterDir(dir)), { recursive: true, force: true });
  }
  for (const root of folders.splice(0)) rmSync(root, { recursive: true, force: true });
});

afterAll(() => {
  if (!sharedExisted && existsSync(sharedClustersDir) && readdirSync(sharedClustersDir).length === 0) rmdirSync(sharedClustersDir);
});

async function sql<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

const stranger = { name: "postgres", uid: 4_000_001, gid: 4_000_001 };

describe("where the embedded cluster lives", () => {
  test.runIf(asRoot)("under root, below a private folder: in the shared folder, with its data kept across restarts and mode changes", async () => {
    const dir = privateClusterDir();
    const privateFolder = folders.at(-1)!;
    const first = await startCluster({ dir, durability: "disposable" });
    expect(first.started).toBe(true);
    expect(first.home.dir).toBe(sharedClusterDir(dir));
    expect(first.home.dir).toMatch(new RegExp(`^${sharedClustersDir}/[\\w-]+-[0-9a-f]{12}/postgres$`));
    expect(first.home.movedBecause).toBe(`the account "postgres" it runs as (PostgreSQL refuses to run as root) cannot enter ${privateFolder} (mode 700)`);
    expect(existsSync(dir)).toBe(false); // nothing half-made where it could not go
    // The password is root's alone (the app runs as root); the data, the server's account's.
    const password = statSync(path.join(first.home.dir, "password"));
    expect([password.uid, password.mode & 0o777]).toEqual([0, 0o600]);
    const postgresUid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }));
    expect(statSync(path.join(first.home.dir, "pgdata")).uid).toBe(postgresUid);
    expect(statSync(path.dirname(first.home.dir)).mode & 0o777).toBe(0o711);
    await sql(first.url, "CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)");

    // Stopped by the folder asked for, as the session and the test helpers stop it.
    await stopCluster(dir);
    const pgdata = realpathSync(path.join(first.home.dir, "pgdata"));
    expect(runningPostmaster(pgdata)).toBeNull();

    // Found again after a restart, and still after the private folder is opened up:
    // a cluster already made is never replaced by an empty one in DATA_DIR.
    chmodSync(privateFolder, 0o755);
    const again = await startCluster({ dir, durability: "disposable" });
    expect(again).toMatchObject({ started: true, port: first.port, home: { dir: first.home.dir } });
    expect(again.home.movedBecause).toMatch(/it was made there when the account "postgres" could not reach/);
    expect(await sql(again.url, "SELECT n FROM kept")).toEqual([{ n: 42 }]);
    expect(existsSync(dir)).toBe(false);
  });

  test.runIf(asRoot)("under root, two apps in private folders have a cluster each, and two processes starting at once share one", async () => {
    const a = privateClusterDir();
    const b = privateClusterDir();
    const [a1, a2, b1] = await Promise.all([
      startCluster({ dir: a, durability: "disposable" }),
      startCluster({ dir: a, durability: "disposable" }),
      startCluster({ dir: b, durability: "disposable" }),
    ]);
    expect(a1.port).toBe(a2.port);
    expect([a1.started, a2.started].filter(Boolean)).toHaveLength(1);
    expect(b1.home.dir).not.toBe(a1.home.dir);
    expect(b1.port).not.toBe(a1.port);
    await sql(a1.url, "CREATE TABLE only_in_a (n int)");
    expect(await sql(b1.url, "SELECT to_regclass('only_in_a') AS t")).toEqual([{ t: null }]);
    // The staging folders of the initdb that lost the race are gone.
    expect(readdirSync(path.dirname(a1.home.dir))).toEqual(["postgres"]);
  });

  // A non-root user runs the server as themself: there is no other account to
  // reach the folder (account null), so the cluster stays in DATA_DIR, below any
  // folder. The same user running it for real is the cluster test's "started by an
  // ordinary user" case, which runs as "nobody" under root.
  test("as any other user it stays in DATA_DIR, whatever the folders above", () => {
    const dir = privateClusterDir();
    clusters.pop(); // no cluster is made
    expect(clusterHome(dir, null)).toEqual({ dir, movedBecause: null });
    expect(clusterHome(dir, stranger).dir).not.toBe(dir); // what root's account would get
  });

  test("a cluster already in DATA_DIR stays there, even below a folder the account cannot enter", () => {
    const dir = privateClusterDir();
    clusters.pop();
    mkdirSync(path.join(dir, "pgdata"), { recursive: true });
    expect(clusterHome(dir, stranger)).toEqual({ dir, movedBecause: null });
  });

  test("the same DATA_DIR gets the same shared folder, through links and before it exists", () => {
    const dir = privateClusterDir();
    clusters.pop();
    const root = folders.at(-1)!;
    const linked = path.join(tmpdir(), `linked-${path.basename(root)}`);
    execFileSync("ln", ["-s", root, linked]);
    folders.push(linked);
    const before = sharedClusterDir(dir);
    mkdirSync(path.dirname(dir), { recursive: true });
    expect(sharedClusterDir(dir)).toBe(before);
    expect(sharedClusterDir(path.join(linked, "app", ".data", "postgres"))).toBe(before);
    expect(sharedClusterDir(path.join(root, "other", ".data", "postgres"))).not.toBe(before);
  });

  test("when the shared folder cannot be made, the error names DATA_DIR and DATABASE_URL as the ways out", () => {
    const dir = privateClusterDir();
    clusters.pop();
    const root = folders.at(-1)!;
    const notAFolder = path.join(root, "var-lib");
    writeFileSync(notAFolder, ""); // as /var/lib on a read-only file system: nothing can be made in it
    const home = clusterHome(dir, stranger, path.join(notAFolder, "encore-selfhost"));
    expect(() => prepareSharedHome(home, dir)).toThrow(
      new RegExp(
        `cannot stay in ${dir}: the account "postgres" it runs as .* cannot enter ${root} \\(mode 700\\); ` +
          `and ${path.dirname(home.dir)} cannot be made to hold it instead \\(ENOTDIR.*\\)\\. ` +
          "Set DATA_DIR to a folder that account can enter, or set DATABASE_URL to a PostgreSQL server\\.",
      ),
    );
  });
});
