// encore-selfhost start (npm start): serve the app from its bundle, building the bundle
// first when the sources changed. Plain JavaScript, so a start with nothing changed loads neither TypeScript
// nor esbuild; the build runs in a child process that has them.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { appRoot, runtimeDir } from "../internal/config/app-root.mjs";
import { bundleDir } from "./bundle-dir.mjs";

/**
 * Runs a TypeScript step of the runtime in a child process, whose memory (TypeScript's
 * above all) is gone when it exits; resolves with its exit code.
 */
function runStep(script) {
  const args = [path.join(runtimeDir(), "cli/run-ts.mjs"), path.join(runtimeDir(), "cli", script)];
  const child = spawn(process.execPath, args, { cwd: appRoot, stdio: "inherit" });
  return new Promise((resolve) => {
    child.once("error", (err) => {
      console.error(`${script}: ${err.message}`);
      resolve(1);
    });
    child.once("exit", (code) => resolve(code ?? 1));
  });
}

const entry = path.join(bundleDir(appRoot), "server.mjs");
// A first start (or one after a change) builds; the database cluster is made meanwhile.
if (!existsSync(entry) && (await Promise.all([runStep("bundle.ts"), runStep("prepare.ts")])).some((code) => code !== 0)) {
  process.exitCode = 1;
} else {
  process.setSourceMapsEnabled(true); // stack traces name the TypeScript sources
  // The server reads its flags from process.argv: start passes none (no --dashboard-port: production never serves the dashboard).
  process.argv = [process.argv[0], entry];
  await import(pathToFileURL(entry).href);
}
