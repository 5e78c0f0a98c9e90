// npm start: generate (when sources changed), open and migrate every database,
// load the app, serve. Stops cleanly on SIGTERM/SIGINT.
import { startServer } from "../internal/server/start.ts";

try {
  await startServer();
} catch (err) {
  // Configuration and migration errors carry the variable or file to fix: print that, not a stack.
  console.error(`start-up failed: ${(err as Error).message}`);
  process.exitCode = 1;
}
