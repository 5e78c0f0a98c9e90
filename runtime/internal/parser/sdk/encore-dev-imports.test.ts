import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { fixture, lineOf, parseError } from "../../../test/parser-fixtures.ts";
import { implementedModules, publishedModules } from "./encore-dev-modules.mjs";
import { parseApp } from "../mod.ts";

const appRoot = (name: string) => fixture(`encore-dev-imports/${name}`);

describe("an encore.dev import at generation", () => {
  it("of a module encore.dev does not publish is refused, naming the import, its file and line, and what is published", () => {
    const root = appRoot("unpublished");
    const line = lineOf(root, "svc/api.ts", '"encore.dev/nope"');
    const error = parseError(root);
    expect(error.message).toBe(
      `svc/api.ts:${line}: imports "encore.dev/nope", which encore.dev does not publish; published: ${publishedModules.join(", ")}`,
    );
    expect([error.file, error.line]).toEqual(["svc/api.ts", line]);
  });

  it("of implemented modules, in import, export from and import() forms, parses", () => {
    const meta = parseApp(appRoot("published"));
    expect(meta.services.map((s) => s.endpoints.map((e) => e.name))).toEqual([["hello"]]);
  });
});

describe("the list of encore.dev modules", () => {
  it("is what the encore.dev package on npm publishes (its package.json exports, the codegen wildcard expanded)", () => {
    // Its package.json is not among its exports: found from the resolved paths of node_modules.
    const encoreDev = createRequire(import.meta.url)
      .resolve.paths("encore.dev")!
      .map((modules) => path.join(modules, "encore.dev"))
      .find((dir) => fs.existsSync(path.join(dir, "package.json")))!;
    const { exports } = JSON.parse(fs.readFileSync(path.join(encoreDev, "package.json"), "utf8")) as { exports: Record<string, unknown> };
    const published = Object.keys(exports)
      .filter((key) => key !== "./package.json")
      .flatMap((key) => {
        if (!key.endsWith("/*")) return [key];
        const folder = key.slice(2, -2);
        return fs
          .readdirSync(path.join(encoreDev, folder))
          .filter((name) => name.endsWith(".ts"))
          .map((name) => `./${folder}/${name.slice(0, -3)}`);
      })
      .map((key) => (key === "." ? "encore.dev" : `encore.dev/${key.slice(2)}`));
    expect([...publishedModules]).toEqual(published.sort());
  });

  it("names as implemented exactly the modules under runtime/encore.dev", () => {
    const runtimeFace = path.join(import.meta.dirname, "../../../encore.dev");
    const onDisk = fs
      .readdirSync(runtimeFace, { recursive: true, encoding: "utf8" })
      .filter((file) => path.basename(file) === "mod.ts")
      .map((file) => ["encore.dev", ...path.dirname(file).split(path.sep).filter((part) => part !== ".")].join("/"));
    expect([...implementedModules].sort()).toEqual(onDisk.sort());
  });
});
