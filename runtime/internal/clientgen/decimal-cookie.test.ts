// The generated clients and OpenAPI document for Decimal fields and Cookie<...> parameters,
// as Encore writes them (pkg/clientgen/testdata/tsapp: expected_decimal_* and the cookie
// endpoints of input.ts): a decimal is a string in the client's types, passed through
// String() into a query string or header; cookie fields are left out of the types and
// calls, since a browser sends and stores cookies itself, and an auth handler that reads
// only cookies gives the client no auth option.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseApp } from "../parser/mod.ts";
import { fixture } from "../../test/parser-fixtures.ts";
import { ENVIRONMENTS, typeErrors } from "../../test/type-check.ts";
import { generateClient } from "./mod.ts";

const meta = parseApp(fixture("decimal-cookie"));
const dir = mkdtempSync(path.join(tmpdir(), "clientgen-decimal-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("clients of an app with Decimal fields and cookie parameters", () => {
  const ts = generateClient(meta, { lang: "typescript", appSlug: "dc" });
  const js = generateClient(meta, { lang: "javascript", appSlug: "dc" });

  it("type a decimal as a string, and send one in the query string or a header through String()", () => {
    expect(ts).toContain("    export interface Quote {\n        amount: string\n        quantity: number\n        discount?: string | null\n    }");
    expect(ts).toContain("    export interface Total {\n        total: string\n        lines: string[]\n        saved: string | null\n    }");
    for (const code of [ts, js]) {
      expect(code).toContain("amount: String(params.amount),");
      expect(code).toContain("r: String(params.rate),");
      expect(code).toContain('"x-fee": params.fee === undefined ? undefined : String(params.fee),');
    }
  });

  it("leave cookie fields out of request and response types and out of the call", () => {
    expect(ts).toContain("    export interface Prefs {\n        q?: string\n    }");
    expect(ts).toContain("    export interface Session {\n        user: string\n    }");
    for (const code of [ts, js]) expect(code).not.toMatch(/\bsid\b|\bsince\b|\btheme\?:|cookie/i);
  });

  it("offer no auth option when the auth handler reads only cookies", () => {
    expect(ts).not.toContain("auth?:");
    for (const code of [ts, js]) expect(code).not.toContain("AuthParams");
  });

  it("type-checks in a browser and in Node", () => {
    const file = path.join(dir, "client.ts");
    writeFileSync(file, ts);
    expect(typeErrors([file], ENVIRONMENTS.dom)).toEqual([]);
    expect(typeErrors([file], ENVIRONMENTS.node)).toEqual([]);
  });

  it("the OpenAPI document has a decimal as a plain string and no cookie parameters", () => {
    const doc = JSON.parse(generateClient(meta, { lang: "openapi", appSlug: "dc" })) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const convert = doc.paths["/convert"]!["get"]!;
    expect(convert["parameters"]).toEqual([
      { name: "amount", in: "query", required: true, schema: { type: "string" } },
      { name: "r", in: "query", required: true, schema: { type: "string" } },
      { name: "x-fee", in: "header", required: false, schema: { type: "string" } },
    ]);
    expect(doc.paths["/prefs"]!["get"]!["parameters"]).toEqual([{ name: "q", in: "query", required: false, schema: { type: "string" } }]);
    expect(JSON.stringify(doc)).not.toMatch(/x-encore|"in":"cookie"|"sid"/);
  });
});
