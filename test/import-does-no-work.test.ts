// Importing an app module does no work: it opens no connection (to PostgreSQL, Redis or
// NATS), reads no big file, and leaves nothing running. Connections and big files wait for
// their first use, so tests, tools and instances that never need them never pay for them.
// Every module of the app is imported in a process of its own, as a server loads them,
// with REDIS_URL, DATABASE_URL and NATS_URL pointing at listeners of this test's own,
// which count what reaches them.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer, connect, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import ts from "typescript";
import { afterAll, expect, test } from "vitest";
import { appRoot } from "../runtime/internal/config/app-root.ts";

/** The app's folders, as tsconfig.json lists them (encore.gen aside: generated, not the app's). */
const appFolders = (ts.readConfigFile(path.join(appRoot, "tsconfig.json"), ts.sys.readFile).config as { include: string[] }).include.filter(
  (folder) => folder !== "encore.gen",
);
/**
 * These services' definitions start their background work when the service starts, by
 * design (Encore.ts has no start-up hook: url/startup/start.ts, links/startup/start.ts):
 * that is a start, not an import.
 */
const serviceStarts = ["url/encore.service.ts", "links/encore.service.ts"];
const bigReadBytes = 1 << 20;

const dataDir = mkdtempSync(path.join(tmpdir(), "import-no-work-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Every non-test TypeScript module of the app, relative to its root. */
function appModules(): string[] {
  return appFolders
    .flatMap((folder) => readdirSync(path.join(appRoot, folder), { recursive: true, encoding: "utf8" }).map((file) => path.join(folder, file)))
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.endsWith(".d.ts"))
    .sort();
}

/** A line import-app-modules.ts writes: after the imports (`imported` set), and once nothing is left to run. */
interface Report {
  readonly imported?: number;
  readonly leftRunning?: string[];
  readonly bigReads: { file: string; bytes: number; via: string }[];
}

interface Listener {
  readonly port: number;
  /** Connections that reached it, apart from its own probes. */
  readonly connections: () => number;
  /** Resolves once every connection made to it so far has been accepted and counted. */
  caughtUp(): Promise<void>;
  close(): Promise<void>;
}

/** A TCP listener on loopback that counts connections and closes each at once. */
async function listener(): Promise<Listener> {
  const arrived = new Set<number>(); // by the client's port
  const probes = new Set<number>();
  const server: Server = createServer((socket) => {
    arrived.add(socket.remotePort!);
    socket.destroy();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  return {
    port,
    connections: () => [...arrived].filter((p) => !probes.has(p)).length,
    // Connections are accepted in the order they were made: once a probe made now has arrived, so has every earlier one.
    async caughtUp() {
      const probe = connect(port, "127.0.0.1");
      probe.on("error", () => {}); // closed by the listener at once
      await once(probe, "connect");
      probes.add(probe.localPort!);
      while (!arrived.has(probe.localPort!)) await once(server, "connection");
      probe.destroy();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test("importing every app module opens no connection, reads no big file and leaves nothing running", async () => {
  const modules = appModules().filter((file) => !serviceStarts.includes(file));
  expect(appModules()).toEqual(expect.arrayContaining(serviceStarts));
  // The places that did work at import once: a listing that missed them would prove nothing.
  expect(modules).toEqual(
    expect.arrayContaining(["limits/limiter/redis.ts", "limits/links.ts", "auth/login.ts", "visitors/countries.ts", "users/db.ts", "url/db.ts"]),
  );

  const [redis, database, nats] = await Promise.all([listener(), listener(), listener()]);
  try {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--import", "./runtime/loader/register.mjs", "test/import-app-modules.ts", ...modules],
      {
        cwd: appRoot,
        env: {
          ...process.env,
          REDIS_URL: `redis://127.0.0.1:${redis.port}`,
          DATABASE_URL: `postgres://postgres@127.0.0.1:${database.port}/postgres`,
          NATS_URL: `nats://127.0.0.1:${nats.port}`,
          DATA_DIR: dataDir,
          BIG_READ_BYTES: String(bigReadBytes),
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
    const reports: Report[] = [];
    const lines = createInterface({ input: child.stdout });
    const imported = new Promise<Report>((resolve, reject) => {
      lines.on("line", (line) => {
        const report = line.startsWith('{"') ? (JSON.parse(line) as Partial<Report>) : {};
        if (report.bigReads === undefined) return; // a log line
        reports.push(report as Report);
        if (report.imported !== undefined) resolve(report as Report);
      });
      void exited.then((code) => reject(new Error(`the importing process exited (${code}) before it had imported everything:\n${stderr}`)));
    });

    const done = await imported;
    // A timer or socket left running would keep the process alive: stop it; what it was is reported below.
    if (done.leftRunning!.length > 0) child.kill();
    const exitCode = await exited;
    await Promise.all([redis, database, nats].map((l) => l.caughtUp()));
    expect(
      {
        imported: done.imported,
        leftRunning: done.leftRunning,
        exitCode,
        bigReads: reports.at(-1)!.bigReads.map((r) => `${r.file}: ${r.bytes} bytes, ${r.via}`),
        connections: { redis: redis.connections(), database: database.connections(), nats: nats.connections() },
      },
      stderr,
    ).toEqual({ imported: modules.length, leftRunning: [], exitCode: 0, bigReads: [], connections: { redis: 0, database: 0, nats: 0 } });
  } finally {
    await Promise.all([redis, database, nats].map((l) => l.close()));
  }
}, 120_000);
