import path from "node:path";
import { describe, expect, it } from "vitest";
import { fixture } from "../../test/parser-fixtures.ts";
import { parseApp } from "./mod.ts";
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
