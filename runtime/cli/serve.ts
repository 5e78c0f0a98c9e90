// The entry point of the production bundle (npm start): serve what bundle.ts bundled.
import { provideHandlers } from "../internal/registry/endpoints.ts";
import { startServer } from "../internal/server/start.ts";

// A dynamic import, so the app's modules run only after the databases are open.
provideHandlers(() => import("~encore/internal/handlers"));

try {
  await startServer();
} catch (err) {
  console.error(`start-up failed: ${(err as Error).message}`);
  process.exitCode = 1;
}
