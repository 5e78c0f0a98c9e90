import { describe, expect, it } from "vitest";
import { fixture, lineOf, parseError } from "../../../test/parser-fixtures.ts";
import { parseApp } from "../mod.ts";

// The runtime reads `middlewares` from the Service object at boot; what Encore's parser
// refuses in the config is refused here too, so nothing in it can be silently ignored.

interface Case {
  readonly fixture: string;
  readonly at: string;
  readonly message: string;
}

const file = "svc/encore.service.ts";

const CASES: readonly Case[] = [
  {
    fixture: "non-literal-config",
    at: 'new Service("svc", config)',
    message: 'the config of service "svc" must be an object literal, as in `new Service("svc", { middlewares: [...] })`',
  },
  {
    fixture: "shorthand",
    at: "{ middlewares }",
    message: 'each setting in the config of service "svc" must be written `name: value` (no spread, shorthand, method or computed name)',
  },
  {
    fixture: "spread",
    at: "...shared",
    message: 'each setting in the config of service "svc" must be written `name: value` (no spread, shorthand, method or computed name)',
  },
  { fixture: "unknown-setting", at: "cors: true", message: 'unknown setting "cors" of service "svc" (known: middlewares)' },
  { fixture: "set-twice", at: "middlewares: [limit]", message: 'setting "middlewares" of service "svc" is set twice' },
];

describe("a service config the runtime could not read faithfully is refused, naming file and line", () => {
  it.each(CASES)("$fixture", (testCase) => {
    const root = fixture(`middleware/${testCase.fixture}`);
    const line = lineOf(root, file, testCase.at);
    expect(parseError(root).message).toBe(`${file}:${line}: ${testCase.message}`);
  });
});

describe("a service config of middlewares", () => {
  it("is accepted, and the service's endpoints are read as usual", () => {
    const meta = parseApp(fixture("middleware/valid"));
    expect(meta.services.map((s) => [s.name, s.endpoints.map((e) => e.name)])).toEqual([["svc", ["ping"]]]);
  });
});
