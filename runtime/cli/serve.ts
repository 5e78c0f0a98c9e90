// The entry point of the production bundle (npm start), and of the app that `run` restarts
// on every change: serve what bundle.ts bundled. `run` adds --dashboard-port=<n>.
import { provideHandlers } from "../internal/registry/endpoints.ts";
import { startServer } from "../internal/server/start.ts";

// A dynamic import, so the app's modules run only after the databases are open.
provideHandlers(() => import("~encore/internal/handlers"));

try {
  await startServer({ dashboardPort: dashboardPort(process.argv.slice(2)) });
} catch (err) {
  console.error(`start-up failed: ${(err as Error).message}`);
  process.exitCode = 1;
}

/** --dashboard-port=<n>: an integer from 0 to 65535 (0: any free port); absent: no dashboard. */
function dashboardPort(args: readonly string[]): number | undefined {
  const flag = "--dashboard-port=";
  const given = args.filter((a) => a.startsWith(flag)).at(-1)?.slice(flag.length);
  if (given === undefined) return undefined;
  const port = /^\d{1,5}$/.test(given) ? Number(given) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new Error(`--dashboard-port must be an integer from 0 to 65535, got "${given}"`);
  return port;
}
