// encore-selfhost gen (npm run gen): writes encore.gen/ when the app's sources changed (--force: always).
import { appRoot } from "../internal/config/app-root.ts";
import { generate } from "../internal/codegen/generate.ts";
import { ParseError } from "../internal/parser/mod.ts";

try {
  const { meta, regenerated } = generate(appRoot, { force: process.argv.includes("--force") });
  const endpoints = meta.services.reduce((n, s) => n + s.endpoints.length, 0);
  if (regenerated) console.log(`encore.gen: ${meta.services.length} services, ${endpoints} endpoints`);
} catch (err) {
  if (!(err instanceof ParseError)) throw err;
  console.error(`generation failed: ${err.message}`);
  process.exitCode = 1;
}
