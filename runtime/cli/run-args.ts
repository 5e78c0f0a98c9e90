/** `run`'s flags. */
export interface RunArgs {
  /** The development dashboard's loopback port; null with --no-dashboard. */
  readonly dashboardPort: number | null;
}

export const defaultDashboardPort = 9400;

/** The parsed flags, or a message saying what is wrong with them. */
export function parseRunArgs(args: readonly string[]): RunArgs | { readonly error: string } {
  let port: string | undefined;
  let dashboard = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--no-dashboard") dashboard = false;
    else if (arg.startsWith("--dashboard-port=")) port = arg.slice("--dashboard-port=".length);
    else if (arg === "--dashboard-port") {
      port = args[++i];
      if (port === undefined) return { error: "--dashboard-port needs a port number" };
    } else return { error: `unknown argument "${arg}"` };
  }
  if (!dashboard) return { dashboardPort: null };
  if (port === undefined) return { dashboardPort: defaultDashboardPort };
  const n = /^\d{1,5}$/.test(port) ? Number(port) : NaN;
  if (!(n >= 0 && n <= 65535)) return { error: `--dashboard-port must be an integer from 0 to 65535, got "${port}"` };
  return { dashboardPort: n };
}
