// The development dashboard started in a test's own process, beside the app server the test
// started, with the cookie that the link `run` prints gives its developer's browser.
import { appRoot } from "../internal/config/app-root.ts";
import { newDashboardSecret } from "../internal/config/dashboard-secret.ts";
import { accessCookieName } from "../internal/dashboard/access.ts";
import { startDashboard, type Dashboard, type DashboardOptions } from "../internal/dashboard/server.ts";
import { appMeta } from "../internal/meta/load.ts";
import type { DevCalls } from "../internal/server/runtime-routes/dev-calls.ts";

export interface TestDashboard {
  readonly dashboard: Dashboard;
  readonly secret: string;
  /** "http://127.0.0.1:<port>" */
  readonly base: string;
  /** The developer's cookie, as headers; for the dashboard on `port` (this one's by default). */
  access(port?: number): Record<string, string>;
}

/** A dashboard on a free port for the app at `appUrl`, no traces kept unless `options` says otherwise. */
export async function startTestDashboard(appUrl: string, devCalls: DevCalls, options: Partial<DashboardOptions> = {}): Promise<TestDashboard> {
  const secret = options.secret ?? newDashboardSecret();
  const dashboard = await startDashboard({
    port: 0,
    meta: appMeta(),
    appRoot,
    appBaseUrl: appUrl,
    appUrl,
    devCalls,
    secret,
    traces: null,
    tracing: { keep: 0, otlpEndpoint: null },
    ...options,
  });
  return {
    dashboard,
    secret,
    base: `http://127.0.0.1:${dashboard.port}`,
    access: (port = dashboard.port) => ({ cookie: `${accessCookieName(port)}=${secret}` }),
  };
}
