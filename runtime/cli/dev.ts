// npm run dev: generate (when sources changed) and serve straight from the
// TypeScript sources, through tsx and the loader hook. npm start runs the bundle.
import { appRoot } from "../internal/config/app-root.ts";
import { generate } from "../internal/codegen/generate.ts";
import { startServer } from "../internal/server/start.ts";

try {
  generate(appRoot);
  await startServer();
} catch (err) {
  // Configuration, generation and migration errors name what to fix: print that, not a stack.
  console.error(`start-up failed: ${(err as Error).message}`);
  process.exitCode = 1;
}
