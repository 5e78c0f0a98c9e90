// npm run bench:footprint: how fast `npm start` answers and how little it holds, each
// figure beside its target. Runs on a copy of this checkout in a temporary folder (no
// encore.gen/, its own DATA_DIR), so "fresh" is fresh and the user's .data is never touched.
//
//   BENCH_ROUNDS (3)      rounds of (a)-(d); each figure is the median, every round is printed
//   BENCH_LINKS (100000)  links seeded before (e)
//   BENCH_LOAD_SECONDS (30), BENCH_CONNECTIONS (50)  the mixed load of (e)
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { stopCluster } from "../runtime/internal/sql/embedded/cluster.ts";
import { tempDataDir } from "../runtime/vitest/temp-dir.ts";
import { copyCheckout } from "../test/support/checkout-copy.ts";
import { generatorName, runLoad } from "./load.ts";
import { npmStart, type StartedApp } from "./npm-start.ts";
import { childrenOf, cpuSeconds, postmasterPid, pssBytes } from "./proc.ts";
import { seed } from "./seed.ts";

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const links = Number(process.env.BENCH_LINKS ?? 100_000);
const loadSeconds = Number(process.env.BENCH_LOAD_SECONDS ?? 30);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const idleMs = 10_000;
const mix = { shorten: 0.05, stats: 0.05 };

const checkout = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MB = 1024 * 1024;

interface Figure {
  readonly name: string;
  readonly command: string;
  readonly unit: string;
  readonly target: number;
  readonly values: number[];
  /** Printed after the values: what makes them up. */
  detail?: string;
}

async function main(): Promise<void> {
  const work = tempDataDir("footprint-");
  const appDir = path.join(work, "app");
  const dataDir = path.join(work, "data");
  const logFile = path.join(work, "npm-start.log");
  copyCheckout(checkout, appDir);
  // The default configuration: embedded PostgreSQL, SQL pub/sub, whatever the caller's shell sets.
  // Limits off: the seed and the load shorten from one address.
  const env = {
    PORT: String(await freePort()), DATA_DIR: dataDir, DATABASE_URL: "", DATABASE_NAME_PREFIX: "", NATS_URL: "", LOG_LEVEL: "info",
    SHORTEN_LIMIT_PER_ADDRESS: "off", SHORTEN_LIMIT_PER_USER: "off",
  };
  const figures = {
    fresh: figure("(a) fresh start to first 200", "npm start, no encore.gen/ and an empty DATA_DIR", "s", 5),
    restart: figure("(b) restart to first 200", "npm start again after SIGTERM, nothing changed", "s", 1.5),
    idleMemory: figure("(c) idle PSS, app + cluster", `PSS from /proc/<pid>/smaps_rollup, ${idleMs / 1000} s after (b)`, "MB", 250),
    idleCpu: figure("(d) idle CPU, app + cluster", `CPU time over the ${idleMs / 1000} s after (c), as % of one core`, "%", 1),
    // V8 shrinks the heap once, some 5 to 20 s after start-up's allocations end (its memory
    // reducer: about 150 ms of CPU over its threads); whether that lands in (d) varies by run.
    steadyCpu: figure("(d2) idle CPU, steady", `CPU time over 10 s from ${(3 * idleMs) / 1000} s after (b), as % of one core`, "%", 1),
    loadedMemory: figure(
      "(e) PSS after seeding and load",
      `${links} links via POST /shorten, then ${loadSeconds} s of ${Math.round((1 - mix.shorten - mix.stats) * 100)}% lookups / ${mix.shorten * 100}% shortens / ${mix.stats * 100}% stats (${generatorName()}, ${connections} connections)`,
      "MB",
      350,
    ),
  };
  console.log(`copy of ${checkout} in ${appDir}; load before: ${loadAverage()}`);
  console.log(`busiest other processes:\n${busiest()}`);
  let app: StartedApp | undefined;
  try {
    for (let round = 1; round <= rounds; round++) {
      rmSync(path.join(appDir, "encore.gen"), { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
      app = await npmStart(appDir, env, logFile);
      figures.fresh.values.push(app.readyMs / 1000);
      await app.stop();
      app = await npmStart(appDir, env, logFile);
      figures.restart.values.push(app.readyMs / 1000);
      await sleep(idleMs);
      const memory = footprint(app.appPid, dataDir);
      figures.idleMemory.values.push(memory.total / MB);
      figures.idleMemory.detail = memory.detail;
      const before = cpuSeconds(app.appPid, postmasterPid(dataDir));
      await sleep(idleMs);
      const used = cpuSeconds(app.appPid, postmasterPid(dataDir)) - before;
      figures.idleCpu.values.push((used / (idleMs / 1000)) * 100);
      await sleep(idleMs);
      const steadyBefore = cpuSeconds(app.appPid, postmasterPid(dataDir));
      await sleep(idleMs);
      const steadyUsed = cpuSeconds(app.appPid, postmasterPid(dataDir)) - steadyBefore;
      figures.steadyCpu.values.push((steadyUsed / (idleMs / 1000)) * 100);
      await app.stop();
      app = undefined;
      console.log(`round ${round}: ${Object.values(figures).filter((f) => f.values.length === round).map((f) => `${f.name.split(" ")[0]} ${format(f.values.at(-1)!, f.unit)}`).join(", ")}`);
    }

    app = await npmStart(appDir, env, logFile);
    const codes = await seed(app.url, links);
    const codesFile = path.join(work, "codes.txt");
    writeFileSync(codesFile, codes.join("\n") + "\n");
    const load = await runLoad(app.url, { method: "GET", path: { codes, codesFile }, mix }, { connections, seconds: loadSeconds });
    const memory = footprint(app.appPid, dataDir);
    figures.loadedMemory.values.push(memory.total / MB);
    figures.loadedMemory.detail = `${memory.detail}; load: ${Math.round(load.rps)} rps, ${load.failed} failed`;
    await app.stop();
    app = undefined;
  } finally {
    if (app) await app.stop().catch((err: unknown) => console.error((err as Error).message));
    await stopCluster(path.join(dataDir, "postgres")); // only if a stop failed midway
    console.log(`load after: ${loadAverage()}`);
    print(Object.values(figures));
    rmSync(work, { recursive: true, force: true });
  }
}

function figure(name: string, command: string, unit: string, target: number): Figure {
  return { name, command, unit, target, values: [] };
}

/** PSS of the app and of every process of its cluster (the postmaster and its children). */
function footprint(appPid: number, dataDir: string): { total: number; detail: string } {
  const postmaster = postmasterPid(dataDir);
  const cluster = postmaster ? [postmaster, ...childrenOf(postmaster)] : [];
  const app = pssBytes(appPid);
  const db = cluster.reduce((sum, pid) => sum + pssBytes(pid), 0);
  return { total: app + db, detail: `app ${(app / MB).toFixed(0)} MB + cluster ${(db / MB).toFixed(0)} MB in ${cluster.length} processes` };
}

function print(figures: readonly Figure[]): void {
  console.log("\n| Figure | Median | Rounds | Target | Met | Measured as |");
  console.log("|---|---:|---|---:|---|---|");
  for (const f of figures) {
    if (f.values.length === 0) continue;
    const median = [...f.values].sort((x, y) => x - y)[Math.floor(f.values.length / 2)]!;
    const each = f.values.map((v) => format(v, f.unit)).join(", ");
    const detail = f.detail ? `; ${f.detail}` : "";
    console.log(`| ${f.name} | ${format(median, f.unit)} | ${each} | ≤ ${f.target} ${f.unit} | ${median <= f.target ? "yes" : "NO"} | ${f.command}${detail} |`);
  }
}

function format(value: number, unit: string): string {
  return `${value.toFixed(unit === "MB" ? 0 : 2)} ${unit}`;
}

function loadAverage(): string {
  return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
}

function busiest(): string {
  const lines = execFileSync("ps", ["-eo", "pcpu,pid,args", "--sort=-pcpu"], { encoding: "utf8" }).split("\n");
  return lines.slice(1, 6).map((l) => `  ${l.slice(0, 120)}`).join("\n");
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

await main();
