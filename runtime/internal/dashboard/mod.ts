import type { FastifyInstance } from "fastify";
import type { RuntimeConfig } from "../config/config.ts";
import { rootLogger } from "../log/root.ts";
import { appMeta } from "../meta/load.ts";
import type { DevCalls } from "../server/runtime-routes/dev-calls.ts";
import { startDashboard, type Dashboard } from "./server.ts";
import { traceStore } from "../tracing/mod.ts";

/**
 * Starts the development dashboard beside the app's server, which listens already (built
 * with the same `devCalls`), open to whoever holds `secret`. A dashboard that cannot start
 * (its port taken, by another `run` for one) is a warning: the app keeps serving without it.
 */
export async function openDashboard(
  app: FastifyInstance,
  cfg: Pick<RuntimeConfig, "appRoot" | "host" | "tracing">,
  { port, secret, devCalls }: { port: number; secret: string; devCalls: DevCalls },
): Promise<Dashboard | null> {
  const log = rootLogger();
  const address = app.server.address();
  const appPort = typeof address === "object" && address ? address.port : 0;
  try {
    const dashboard = await startDashboard({
      port,
      meta: appMeta(),
      appRoot: cfg.appRoot,
      appBaseUrl: `http://localhost:${appPort}`,
      appUrl: `http://${loopbackHost(cfg.host)}:${appPort}`,
      devCalls,
      secret,
      traces: traceStore(),
      tracing: { keep: cfg.tracing.buffer, otlpEndpoint: cfg.tracing.otlpTracesUrl },
    });
    // Without the secret: log lines may be kept or shipped where other accounts read them; `run` prints the link.
    log.info(`development dashboard at ${dashboard.url}`);
    return dashboard;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "EADDRINUSE" ? `port ${port} is in use` : (err as Error).message;
    log.warn({ port }, `development dashboard not started: ${why}; the app serves without it (--dashboard-port picks another port)`);
    return null;
  }
}

/** Where the app is reached from this process: loopback when it listens on every interface, else its own address. */
function loopbackHost(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}
