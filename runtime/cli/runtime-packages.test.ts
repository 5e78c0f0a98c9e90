import { build, type Plugin } from "esbuild";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import { runtimeDir } from "../internal/config/runtime-dir.mjs";
import { nodeBundle } from "./esbuild-node.mjs";
import { packageDirFrom, runtimePackagesForDeploy, runtimePackagesHere, versionAt } from "./runtime-packages.mjs";

// Runtime code importing ajv and ajv-formats, as the server bundle holds it.
const entry = path.join(runtimeDir(), "internal", "validation", "ajv.ts");

async function externalImports(plugin: Plugin): Promise<string[]> {
  const result = await build({ ...nodeBundle, entryPoints: [entry], outdir: "out", write: false, metafile: true, logLevel: "silent", plugins: [plugin] });
  return Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path));
}

describe("the npm packages of the runtime's own code, in its bundles", () => {
  // An app with an ajv 6 of its own at its root, where a bundle in the app would find "ajv".
  const app = mkdtempSync(path.join(os.tmpdir(), "runtime-packages-"));
  mkdirSync(path.join(app, "node_modules", "ajv"), { recursive: true });
  writeFileSync(path.join(app, "node_modules", "ajv", "package.json"), JSON.stringify({ name: "ajv", version: "6.12.6", main: "lib/ajv.js" }));
  afterAll(() => rmSync(app, { recursive: true, force: true }));
  const runtimesAjv = packageDirFrom(runtimeDir(), "ajv")!;

  test("in a bundle run where it is built, are the files Node loads for the runtime's code", async () => {
    const imports = await externalImports(await runtimePackagesHere());
    const ajv = createRequire(path.join(runtimeDir(), "package.json")).resolve("ajv");
    expect(imports).toContain(pathToFileURL(ajv).href);
    expect(imports.every((i) => i.startsWith("file://"))).toBe(true);
  });

  test("in a deployable folder, keep their names where the app resolves them to the same copy", async () => {
    const shared = runtimePackagesForDeploy(path.dirname(runtimeDir()));
    const imports = await externalImports(shared.plugin);
    expect(imports).toEqual(expect.arrayContaining(["ajv", "ajv-formats"]));
    expect([...shared.aliases]).toEqual([]);
  });

  test("in a deployable folder, go to an alias at the runtime's version where the app has another copy", async () => {
    const deploy = runtimePackagesForDeploy(app);
    const imports = await externalImports(deploy.plugin);
    expect(imports).toContain("@encore-selfhost-runtime/ajv");
    expect(imports).not.toContain("ajv");
    expect(deploy.aliases.get("@encore-selfhost-runtime/ajv")).toBe(`npm:ajv@${versionAt(runtimesAjv)}`);
    expect(versionAt(runtimesAjv)).toMatch(/^8\./);
  });
});
