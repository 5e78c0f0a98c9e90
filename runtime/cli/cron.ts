// encore-selfhost cron <job-name> | --list (npm run cron -- ...)
// Runs one cron job now and prints how it went, or lists the jobs with their next
// tick and last run. It opens the databases itself, as another instance would: on
// DATABASE_URL's server, or on the embedded cluster, which it joins when a server is
// running on it and starts (then stops again) when none is.
import { generate } from "../internal/codegen/generate.ts";
import { appRoot } from "../internal/config/mod.ts";
import { exitCodeOf, formatJobList, formatRunResult, toWire } from "../internal/cron/format.ts";
import { cronScheduler, stopCron } from "../internal/cron/mod.ts";
import { appMeta } from "../internal/meta/load.ts";
import { stopPubSub } from "../internal/pubsub/mod.ts";
import { loadEndpoints } from "../internal/registry/endpoints.ts";
import { connectServer, connectionsReady, disconnectServer, openDatabase } from "../internal/sql/databases.ts";
import { startAppTracing } from "../internal/tracing/boot.ts";
import { stopTracing } from "../internal/tracing/mod.ts";

const usage = "usage: encore-selfhost cron <job-name>   run a job now\n       encore-selfhost cron --list       list jobs, next ticks and last runs";

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
// Listeners and timers of the app are not worth tearing down one by one for a command.
process.exit();

async function main(command: string): Promise<number> {
  const meta = generate(appRoot).meta;
  if (command !== "--list" && !meta.cronJobs.some((j) => j.name === command)) {
    const known = meta.cronJobs.map((j) => j.name).join(", ") || "none";
    console.error(`cron: no job "${command}" (jobs: ${known})`);
    return 2;
  }
  await connectServer();
  try {
    if (command === "--list") {
      console.log(formatJobList(toWire(await (await cronScheduler()).status())));
      return 0;
    }
    // With an OTLP endpoint set, the run is exported as a trace, as the server's runs are.
    await startAppTracing(false);
    for (const db of appMeta().databases) await openDatabase(db.name); // migrated, as at a server's start
    await loadEndpoints();
    await connectionsReady();
    const result = toWire(await (await cronScheduler()).runNow(command));
    console.log(formatRunResult(result));
    return exitCodeOf(result);
  } finally {
    await stopCron(0);
    await stopPubSub(5_000);
    await stopTracing(5_000);
    await disconnectServer();
  }
}
