import path from "node:path";
import { describe, expect, it } from "vitest";
import { fixture } from "../../../test/parser-fixtures.ts";
import { appFiles } from "./app-files.mjs";
import { parseApp } from "../mod.ts";
import { createAppProgram } from "./program.ts";

describe("the app's source files", () => {
  const root = fixture("tool-configs");

  it("leave out a tool's configuration, and the tool's own types with it", () => {
    const app = createAppProgram(root);
    expect(app.files.map((f) => path.relative(root, f.fileName))).toEqual(["svc/encore.service.ts", "svc/limits.config.ts"]);
    expect(app.program.getSourceFiles().some((f) => f.fileName.includes("/node_modules/vitest/"))).toBe(false);
  });

  it("keep a file named like a configuration when it imports from Encore", () => {
    expect(parseApp(root).services[0]?.endpoints.map((e) => e.path)).toEqual(["/limits"]);
  });
});

describe("the folders walked, as Encore's parser walks them", () => {
  const root = fixture("walk");
  const relative = (files: readonly string[]) => files.map((f) => path.relative(root, f));

  it("read every folder's .ts files, one with its own package.json too, and leave out __tests__, dot-folders and tests", () => {
    const app = createAppProgram(root);
    expect(relative(app.files.map((f) => f.fileName))).toEqual([
      "api/encore.service.ts",
      "api/hello.ts",
      "frontend/assets.ts",
      "frontend/encore.service.ts",
      "vendor/pkg/index.ts",
    ]);
    expect(relative(app.unread.map((u) => u.file))).toEqual(["frontend/src/App.tsx"]);
  });

  it("make a service of a front end in a folder with its own package.json", () => {
    const meta = parseApp(root);
    expect(meta.services.map((s) => [s.name, s.endpoints.map((e) => `${e.kind} ${e.path}`)])).toEqual([
      ["api", ["typed /hello"]],
      ["frontend", ["static /!path"]],
    ]);
  });

  it("leave out the folders it is told to skip (the runtime's own package, when the app holds it)", () => {
    expect(relative(appFiles(root, { skip: [path.join(root, "vendor")] }).parsed)).not.toContain("vendor/pkg/index.ts");
  });
});
