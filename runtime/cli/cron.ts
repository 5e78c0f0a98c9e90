// npm run cron -- <job-name> | --list
// Runs one cron job now and prints how it went, or lists the jobs with their next
// tick and last run. With the embedded database, which one process owns, it goes
// through the running server when one is up; otherwise it opens the database itself.
import { request } from "node:http";
import { generate } from "../internal/codegen/generate.ts";
import { appRoot, config } from "../internal/config/mod.ts";
import { claimEmbeddedData, currentOwner } from "../internal/control/owner.ts";
import { exitCodeOf, formatJobList, formatRunResult, toWire, type Wire } from "../internal/cron/format.ts";
import { cronScheduler, stopCron } from "../internal/cron/mod.ts";
import type { JobStatus, TickResult } from "../internal/cron/scheduler.ts";
import { appMeta } from "../internal/meta/load.ts";
import { stopPubSub } from "../internal/pubsub/mod.ts";
import { loadEndpoints } from "../internal/registry/endpoints.ts";
import { closeAllDatabases, connectionsReady, openDatabase } from "../internal/sql/databases.ts";

const usage = "usage: npm run cron -- <job-name>   run a job now\n       npm run cron -- --list       list jobs, next ticks and last runs";

const args = process.argv.slice(2);
if (args.length !== 1 || args[0] === "--help" || args[0] === "-h") {
  console.error(usage);
  process.exit(args.length === 1 ? 0 : 2);
}
const [command] = args as [string];
// The command prints its own result; the app's info logs would bury it.
process.env.LOG_LEVEL ??= "warn";

try {
  process.exitCode = await main(command);
} catch (err) {
  console.error(`cron: ${(err as Error).message}`);
  process.exitCode = 1;
}
// Pools, listeners and timers of the app are not worth tearing down one by one for a command.
process.exit();

async function main(command: string): Promise<number> {
  const meta = generate(appRoot).meta;
  if (command !== "--list" && !meta.cronJobs.some((j) => j.name === command)) {
    const known = meta.cronJobs.map((j) => j.name).join(", ") || "none";
    console.error(`cron: no job "${command}" (jobs: ${known})`);
    return 2;
  }
  const cfg = config();
  const embedded = !cfg.databaseUrl && cfg.pgliteStorage === "disk";
  const owner = embedded ? currentOwner(cfg.dataDir) : null;
  if (owner && (!owner.url || !owner.token)) {
    throw new Error(`the embedded database is in use by process ${owner.pid}, which is not serving yet; try again shortly`);
  }
  const via = owner ? throughServer(owner.url!, owner.token!) : direct(embedded, cfg.dataDir);
  try {
    if (command === "--list") {
      console.log(formatJobList(await via.list()));
      return 0;
    }
    const result = await via.run(command);
    console.log(formatRunResult(result));
    return exitCodeOf(result);
  } finally {
    await via.close();
  }
}

interface Via {
  list(): Promise<Wire<JobStatus>[]>;
  run(job: string): Promise<Wire<TickResult>>;
  close(): Promise<void>;
}

/** Opens the databases in this process, as a server would, and runs the job here. */
function direct(embedded: boolean, dataDir: string): Via {
  const owner = embedded ? claimEmbeddedData(dataDir) : null;
  return {
    list: async () => toWire(await (await cronScheduler()).status()),
    async run(job) {
      for (const db of appMeta().databases) await openDatabase(db.name); // migrated, as at a server's start
      await loadEndpoints();
      await connectionsReady();
      return toWire(await (await cronScheduler()).runNow(job));
    },
    async close() {
      await stopCron(0);
      await stopPubSub(5_000);
      await closeAllDatabases();
      owner?.release();
    },
  };
}

/** The running server owns the embedded database: ask it over its control routes. */
function throughServer(baseUrl: string, token: string): Via {
  return {
    list: async () => ((await call<{ jobs: Wire<JobStatus>[] }>(baseUrl, token, "GET", "/__encore/cron")).jobs),
    run: (job) => call<Wire<TickResult>>(baseUrl, token, "POST", "/__encore/cron/run", { job }),
    close: async () => {},
  };
}

// node:http rather than fetch: fetch gives up on a response after 300 s, and a job may run longer.
function call<T>(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(new URL(path, baseUrl), {
      method,
      headers: { authorization: `Bearer ${token}`, ...(payload ? { "content-type": "application/json" } : {}) },
    });
    req.on("error", (err) => reject(new Error(`the server at ${baseUrl} owns the embedded database but did not answer: ${err.message}`)));
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => {
        const parsed = text ? (JSON.parse(text) as unknown) : null;
        if (res.statusCode === 200) resolve(parsed as T);
        else reject(new Error(`the server answered ${res.statusCode}: ${(parsed as { message?: string } | null)?.message ?? text}`));
      });
    });
    req.end(payload);
  });
}
