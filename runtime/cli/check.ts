// encore-selfhost check: what Encore's compiler would refuse, for the CI of apps that
// also deploy with Encore. Reports with file:line and exits 1 when anything is found.
import { unknownEncoreImports } from "../internal/check/encore-imports.ts";
import { appRoot } from "../internal/config/app-root.ts";
import { ParseError, parseApp } from "../internal/parser/mod.ts";

const problems = unknownEncoreImports(appRoot);
try {
  parseApp(appRoot);
} catch (err) {
  if (!(err instanceof ParseError)) throw err;
  problems.push(err.message);
}
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(`check: ${problems.length} problem${problems.length === 1 ? "" : "s"}`);
  process.exitCode = 1;
} else {
  console.log("check: no problems found");
}
