#!/usr/bin/env node
// encore-selfhost: the runtime's one command, with the verbs of Encore's CLI. Plain
// JavaScript, so `start` with nothing changed loads no TypeScript tooling at all.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const cliDir = path.dirname(fileURLToPath(import.meta.url));
const bin = "encore-selfhost";

/** Each command: what it does, its usage, and how it runs (given the arguments after its name). */
const commands = {
  run: {
    summary: "development server: generate, migrate, serve on loopback, restart on every change; the dashboard at the link it prints",
    usage: `${bin} run [--dashboard-port <n>] [--no-dashboard]

Generates encore.gen/, migrates the databases and serves the app (PORT, default 4000;
on 127.0.0.1 unless HOST is set), then watches the app's sources and restarts it on
every change. Without DATABASE_URL the embedded PostgreSQL cluster under .data/postgres
runs for the whole session, across restarts. Logs are pretty on a terminal and JSON
lines otherwise.

The development dashboard (catalog, API explorer, flow, traces, pub/sub, cron,
databases, buckets) is served on http://localhost:9400, on loopback only, and opens
only with the link printed as "[run] development dashboard: ...?token=<secret>" (a new
secret each time run starts; the browser keeps it across the app's restarts):
  --dashboard-port <n>  serve it on port n instead (0: any free port)
  --no-dashboard        do not serve it`,
    main: (args) => typeScript("run.ts", args),
  },
  start: {
    summary: "production start: bundle when the sources changed, then serve",
    usage: `${bin} start

Serves the app from a bundle in encore.gen/build, building it first when the app's or
the runtime's sources changed. NODE_ENV=production makes missing secrets fatal.
Under a process manager (systemd, pm2, a container), run
node_modules/.bin/${bin} start itself, not npm start or npx ${bin} start:
a SIGTERM sent to npm does not reach the server, which goes on running.`,
    main: () => import("./start.mjs"),
  },
  test: {
    summary: "run the app's tests with vitest, on test databases (arguments go to vitest)",
    usage: `${bin} test [vitest arguments]

Runs \`vitest run\` in the app with encore.dev/* and ~encore/* resolved to this runtime,
one PostgreSQL server for the run (an embedded cluster in a temporary folder, or
TEST_DATABASE_URL's server) and fresh databases for each test file. The app's own
vitest (1.3.1 to 4) runs, with its vitest.config.* or vite.config.* when it has one. An
app with no test files passes, saying so, even without vitest installed. Example:
  ${bin} test url/ --reporter=verbose`,
    main: async (args) => (await import("./test.mjs")).runTests(args),
  },
  gen: {
    summary: "write encore.gen/ (clients, metadata, OpenAPI) when the sources changed; gen client: a client for front ends",
    usage: `${bin} gen [--force]
${bin} gen client [--lang <lang>] [--output <file>] [filters]   (gen client --help)

Parses the app and writes encore.gen/: ~encore/clients, ~encore/auth, the app's
metadata and encore.gen/openapi.json. --force writes even when nothing changed.
"gen client" writes a client for front ends (TypeScript, JavaScript or OpenAPI), as
\`encore gen client\` does.`,
    main: (args) => (args[0] === "client" ? typeScript("gen-client.ts", args.slice(1)) : typeScript("generate.ts", args)),
  },
  check: {
    summary: "report what Encore's compiler would refuse, with file:line (for CI)",
    usage: `${bin} check

Parses the app as Encore's compiler does and reports the first rule it finds broken, and
every import of ~encore/* other than ~encore/clients and ~encore/auth (only those exist
under Encore).
Exits 1 when anything is reported.`,
    main: (args) => typeScript("check.ts", args),
  },
  cron: {
    summary: "run a cron job now, or list jobs with their next tick and last run",
    usage: `${bin} cron <job-name>   run a job now
${bin} cron --list       list jobs, next ticks and last runs`,
    main: (args) => tsxChild("cron.ts", args),
  },
  build: {
    summary: "write a deployable folder (bundle, migrations, package.json, Dockerfile)",
    usage: `${bin} build [--out <dir>]

Writes a folder (default encore.gen/deploy) that runs with node alone: the server bundle,
the app's metadata, migrations and static files, a package.json listing only the npm
packages the bundle imports, and a Dockerfile. It runs in production mode: DATABASE_URL
and every secret the app reads must be set. Under a process manager, run node server.mjs
in that folder itself, as its Dockerfile does, not npm start: a SIGTERM sent to npm does
not reach the server.`,
    main: (args) => typeScript("build.ts", args),
  },
};

const [name, ...args] = process.argv.slice(2);
if (!name || name === "--help" || name === "-h" || name === "help") {
  console.log(overview());
} else if (!Object.hasOwn(commands, name)) {
  fail(`unknown command "${name}"\n\n${overview()}`);
} else if (args[0] === "--help" || args[0] === "-h") {
  console.log(`usage: ${commands[name].usage}`);
} else {
  try {
    await commands[name].main(args);
  } catch (err) {
    // No encore.app above the current directory: the message says what to do.
    fail(`${name}: ${err.name === "NoAppError" ? err.message : err.stack}`);
  }
}

function overview() {
  const width = Math.max(...Object.keys(commands).map((c) => c.length));
  const lines = Object.entries(commands).map(([c, { summary }]) => `  ${c.padEnd(width)}  ${summary}`);
  return `usage: ${bin} <command> [arguments]\n\nRuns an Encore.ts app without the Encore CLI. Commands:\n${lines.join("\n")}\n\n${bin} <command> --help tells more.`;
}

function fail(message) {
  console.error(`${bin} ${message}`);
  process.exitCode = 2;
}

async function typeScript(script, args) {
  const { runTypeScript } = await import("./run-ts.mjs");
  await runTypeScript(path.join(cliDir, script), args);
}

/** Commands that load the app's TypeScript as it is, through tsx and the alias hooks. */
function tsxChild(script, args) {
  const child = spawn(
    process.execPath,
    ["--import", import.meta.resolve("tsx"), "--import", import.meta.resolve("../loader/register.mjs"), path.join(cliDir, script), ...args],
    { stdio: "inherit" },
  );
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve((process.exitCode = code ?? (signal ? 1 : 0)))));
}
