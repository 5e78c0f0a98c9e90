import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { implementedModules } from "../internal/parser/sdk/encore-dev-modules.mjs";
import { aliasTarget, appRoot } from "./aliases.mjs";

describe("aliasTarget", () => {
  it("points every encore.dev module this runtime implements at its file here", () => {
    for (const specifier of implementedModules) {
      const target = aliasTarget(specifier);
      expect(target && existsSync(target), specifier).toBe(true);
    }
    expect(aliasTarget("encore.dev/storage/sqldb")).toBe(path.join(import.meta.dirname, "../encore.dev/storage/sqldb/mod.ts"));
  });

  it("throws for a module encore.dev does not publish, naming the importing file, rather than mapping it to a missing file", () => {
    expect(() => aliasTarget("encore.dev/nope", path.join(appRoot, "url/x.ts"))).toThrow(
      /^url\/x\.ts imports "encore\.dev\/nope", which encore\.dev does not publish; published: encore\.dev, encore\.dev\/api, /,
    );
    expect(() => aliasTarget("encore.dev/api/mod.ts")).toThrow(/^the app imports "encore\.dev\/api\/mod\.ts", which encore\.dev does not publish/);
  });

  it("leaves other specifiers alone", () => {
    expect(aliasTarget("encore.devtools")).toBeNull();
    expect(aliasTarget("pg")).toBeNull();
  });
});
