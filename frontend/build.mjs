// The web front end's build: the typed client generated from the app's API, then Vite.
// With --if-stale (npm start, npm run dev) nothing runs when frontend/dist is newer than
// every file it is built from, so a restart costs one walk over the sources rather than
// two builds (about 1.5 s). Written by hand: it is two commands and a freshness check.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const frontend = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(frontend);
const builtPage = path.join(frontend, "dist", "index.html");
// Not inputs: installed packages, generated or built output, data, and tests.
const ignored = new Set(["node_modules", ".git", ".data", "encore.gen", "dist", "test", "testdata", "screenshots"]);

function newestInput(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (ignored.has(entry.name) || entry.name === "client.gen.ts") continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestInput(full));
    else if (entry.isFile()) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function builtAt() {
  try {
    return statSync(builtPage).mtimeMs;
  } catch {
    return 0;
  }
}

function run(bin, args) {
  const result = spawnSync(path.join(root, "node_modules", ".bin", bin), args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The app's whole source tree counts, not only frontend/: an API change changes the client.
if (process.argv.includes("--if-stale") && builtAt() > newestInput(root)) process.exit(0);
// The web service's api.static refuses a missing folder, and gen client parses the app.
mkdirSync(path.dirname(builtPage), { recursive: true });
run("encore-selfhost", ["gen", "client", "--lang", "typescript", "--output", "frontend/src/client.gen.ts"]);
run("vite", ["build", "frontend", "--logLevel", "warn"]);
