// The repo's app as `npm run dev` serves it (encore-selfhost run), with the development
// dashboard, for the dashboard's browser test: its own data folder and ports.
import { rmSync } from "node:fs";
import { appRoot } from "../../internal/config/app-root.ts";
import { closedPort } from "../../test/closed-port.ts";
import { spawnCommand, whenListening, whenLogged } from "../../test/command.ts";
import { tempDataDir } from "../../vitest/temp-dir.ts";

export interface DevApp {
  /** The app's own base URL, its PUBLIC_BASE_URL. */
  readonly url: string;
  /** The dashboard's base URL, as the app logs it. */
  readonly dashboardUrl: string;
  /** The link with the secret that run prints: what opens the dashboard. */
  readonly dashboardLink: string;
  stop(): Promise<void>;
}

/** `encore-selfhost run --dashboard-port=<free port>` on an embedded PostgreSQL in a temp folder, QR codes on. */
export async function startDevApp(): Promise<DevApp> {
  const dataDir = tempDataDir("dashboard-browser-");
  // Ports nothing listens on now: run hands both to each app it starts, so neither can be 0.
  const [port, dashboardPort] = [await closedPort(), await closedPort()];
  const url = `http://localhost:${port}`;
  const spawned = spawnCommand(process.execPath, ["runtime/cli/main.mjs", "run", `--dashboard-port=${dashboardPort}`], appRoot, {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    DATABASE_NAME_PREFIX: "",
    PORT: String(port),
    PUBLIC_BASE_URL: url,
    QR_CODES: "on",
    LOG_LEVEL: "info",
  });
  const stop = async () => {
    await spawned.stop("SIGTERM"); // run stops its app and its embedded cluster, then exits
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await whenListening(spawned, 180_000);
    // The dashboard opens once the app listens, and says where; run prints the link that opens it.
    const dashboardUrl = await whenLogged(spawned, /development dashboard at (http:\/\/[^"\s]+)/, "serving the dashboard", 30_000);
    const dashboardLink = await whenLogged(spawned, /\[run\] development dashboard: (http:\/\/\S+)/, "printing the dashboard's link", 30_000);
    return { url, dashboardUrl, dashboardLink, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
