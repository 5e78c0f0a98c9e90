// The entry point of the production bundle (npm start), and of the app that `run` restarts
// on every change: serve what bundle.ts bundled. `run` adds --dashboard-port=<n>, hands over
// the dashboard's secret in the environment (never in arguments, which `ps` shows to every
// account), and listens on an IPC channel for the dashboard's URL, to print the link.
import { takeDashboardSecret } from "../internal/config/dashboard-secret.ts";
import { provideHandlers } from "../internal/registry/endpoints.ts";
import { startServer, type DashboardStart } from "../internal/server/lifecycle/start.ts";

/** What the app tells `run` over its IPC channel. */
export interface DashboardOpened {
  readonly dashboardUrl: string;
}

// A dynamic import, so the app's modules run only after the databases are open.
provideHandlers(() => import("~encore/internal/handlers"));

try {
  await startServer({ dashboard: dashboardStart(process.argv.slice(2)) });
} catch (err) {
  console.error(`start-up failed: ${(err as Error).message}`);
  process.exitCode = 1;
}

function dashboardStart(args: readonly string[]): DashboardStart | undefined {
  const port = dashboardPort(args);
  if (port === undefined) return undefined;
  // Taken before the app's modules load, so that nothing the app starts inherits it.
  const secret = takeDashboardSecret(process.env);
  // A callback, so that a run already gone (its channel closed) is not an uncaught error here.
  const opened = (url: string) => void process.send?.({ dashboardUrl: url } satisfies DashboardOpened, undefined, {}, () => {});
  // Loaded only when asked for: production's bundle keeps the dashboard in a chunk it never loads.
  const open: DashboardStart["open"] = async (server, cfg, options) => (await import("../internal/dashboard/mod.ts")).openDashboard(server, cfg, options);
  return { port, secret, opened, open };
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
