// `start`'s build step, run only when the sources changed (start.mjs checks): generate
// encore.gen/, then bundle the server into encore.gen/build/<hash of the sources>.
import { appRoot } from "../internal/config/app-root.ts";
import { ParseError } from "../internal/parser/mod.ts";
import { landBundle, removeOtherBuilds } from "./server-bundle.ts";

try {
  removeOtherBuilds(await landBundle(appRoot));
} catch (err) {
  console.error(`build failed: ${err instanceof ParseError ? err.message : (err as Error).stack}`);
  process.exitCode = 1;
}
