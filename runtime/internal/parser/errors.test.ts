import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, lineOf, parseError } from "../../test/parser-fixtures.ts";
import { ParseError, parseApp } from "./mod.ts";

interface Case {
  readonly fixture: string;
  readonly file: string;
  /** Text on the line the error must point at. */
  readonly at: string;
  readonly message: string;
}

const CASES: readonly Case[] = [
  {
    fixture: "map",
    file: "svc/api.ts",
    at: "m: Map<string, number>;",
    message: 'unsupported type "Map<string, number>" in field "m" of ShortenParams: Map is not serializable',
  },
  {
    fixture: "bigint",
    file: "svc/api.ts",
    at: "sum: bigint;",
    message: 'unsupported type "bigint" in field "sum" of Totals: bigint is not JSON-serializable',
  },
  {
    fixture: "function",
    file: "svc/api.ts",
    at: "run: () => void;",
    message: 'unsupported type "() => void" in field "run" of Job: functions are not serializable',
  },
  {
    fixture: "tuple",
    file: "svc/api.ts",
    at: "coords: [number, number];",
    message: 'unsupported type "[number, number]" in field "from.coords" of Line: tuples are not supported; use an array or an object',
  },
  {
    fixture: "recursive",
    file: "svc/api.ts",
    at: "children: Tree[];",
    message: 'unsupported type "Tree" in field "children[]" of Tree: recursive types are not supported',
  },
  {
    fixture: "non-literal-option",
    file: "svc/api.ts",
    at: "path: base",
    message: 'option "path" of endpoint svc.things must be a literal value, not `base`',
  },
  {
    fixture: "missing-path-param",
    file: "svc/api.ts",
    at: 'path: "/items/:id"',
    message: 'path parameter "id" of endpoint svc.item is not a field of its request type "{ name: string; }"',
  },
  {
    fixture: "static-missing-dir",
    file: "svc/api.ts",
    at: "api.static",
    message: 'option "dir" of endpoint svc.assets: folder svc/dist does not exist',
  },
  {
    fixture: "static-missing-not-found",
    file: "svc/api.ts",
    at: "notFound:",
    message: 'option "notFound" of endpoint svc.assets: file svc/public/404.html does not exist',
  },
  {
    fixture: "static-dynamic-middle",
    file: "svc/api.ts",
    at: "api.static",
    message: 'endpoint svc.assets: a static path may have one dynamic segment, at its end, not "/:tenant/assets/*path"',
  },
  {
    fixture: "duplicate-route",
    file: "svc/api.ts",
    at: "export const first",
    message: "duplicate route GET /items/:id: endpoint svc.first clashes with svc.second (svc/again.ts:3, path /items/:key)",
  },
  {
    fixture: "primitive-response",
    file: "svc/api.ts",
    at: "Promise<string>",
    message: 'unsupported type "string" in the response of svc.hello: responses must be object types',
  },
  {
    fixture: "response-header-number",
    file: "svc/api.ts",
    at: 'total: Header<number, "X-Total">;',
    message: 'field "total" of Counted is a response header, which must be a string',
  },
  {
    fixture: "response-query",
    file: "svc/api.ts",
    at: 'next: Query<"next">;',
    message: 'field "next" of Paged is a Query<...>: a response has no query string',
  },
  {
    fixture: "query-object",
    file: "svc/api.ts",
    at: "filter: { owner: string };",
    message:
      'unsupported type "{ owner: string; }" in field "filter" of ListParams: query parameters must be a string, number, boolean, enum, Date or an array of those',
  },
  {
    fixture: "path-param-type",
    file: "svc/api.ts",
    at: "export const byIds",
    message: 'unsupported type "string[]" in field "ids" of the request of svc.byIds: path parameters must be a string, number, boolean or enum',
  },
  {
    fixture: "class-methods",
    file: "svc/api.ts",
    at: "price: Money",
    message:
      'unsupported type "Money" in field "price" of the request of svc.pay: it has method "format": values with methods (class instances) are not serializable',
  },
  {
    fixture: "duplicate-database",
    file: "svc/api.ts",
    at: 'export const b = new SQLDatabase("main")',
    message: 'database "main" is already declared at svc/api.ts:3; use SQLDatabase.named("main") to reference it',
  },
  {
    fixture: "subscription-topic",
    file: "svc/subs.ts",
    at: 'return new Subscription(topic, "sub"',
    message: "the topic passed to new Subscription(...) must name a topic declared as `const name = new Topic(...)`",
  },
  {
    fixture: "ordering-literal",
    file: "svc/events.ts",
    at: "orderingAttribute: attribute,",
    message: 'the orderingAttribute of topic "carts" must be a string literal',
  },
  {
    fixture: "ordering-not-attribute",
    file: "svc/events.ts",
    at: 'orderingAttribute: "cartId",',
    message: 'orderingAttribute "cartId" of topic "carts" must name a top-level field of its message declared as Attribute<...>',
  },
  {
    fixture: "migrations-source",
    file: "svc/db.ts",
    at: 'export const db = new SQLDatabase("main", {',
    message: 'migrations source "drizzle/v1" of database "main" is not supported (only plain SQL files, "drizzle" and "prisma")',
  },
  {
    fixture: "cookie-response-object",
    file: "svc/api.ts",
    at: "prefs: Cookie<",
    message: 'field "prefs" of Session is a response cookie, whose value must be a string, number, boolean, enum, Date or Decimal',
  },
  {
    fixture: "decimal-path",
    file: "svc/api.ts",
    at: "export const byPrice",
    message: 'unsupported type "Decimal" in field "price" of the request of svc.byPrice: path parameters must be a string, number, boolean or enum',
  },
  {
    fixture: "unexported-endpoint",
    file: "svc/api.ts",
    at: "const hidden",
    message: "API endpoints must be declared as `export const name = api(...)` at the top level of a file",
  },
  {
    fixture: "nested-endpoint",
    file: "svc/api.ts",
    at: "return api(",
    message: "API endpoints must be declared as `export const name = api(...)` at the top level of a file",
  },
  {
    fixture: "unknown-api-kind",
    file: "svc/api.ts",
    at: "api.frontend(",
    message: "api.frontend is not a kind of endpoint encore.dev has (api, api.raw, api.static, api.streamIn, api.streamOut, api.streamInOut)",
  },
  {
    fixture: "service-elsewhere",
    file: "svc/extra.ts",
    at: 'new Service("extra")',
    message: 'a service is declared only in an encore.service.ts, as `export default new Service("name")`',
  },
  {
    fixture: "client-raw-call",
    file: "shop/order.ts",
    at: "await hooks.receive();",
    message:
      "hooks.receive(...) is not in ~encore/clients as encore-selfhost writes it: a service's client holds its typed and streaming endpoints (Encore's holds raw endpoints and ref() too, which are not supported here)",
  },
  {
    fixture: "unread-tsx",
    file: "svc/page.tsx",
    at: "api.raw(",
    message: "api.raw(...) is not read, so it would not exist: Encore's parser reads only .ts files: rename it to page.ts or move the declaration into a .ts file",
  },
  {
    fixture: "unread-js",
    file: "svc/legacy.mjs",
    at: "new Topic(",
    message: "new Topic(...) is not read, so it would not exist: Encore's parser reads only .ts files: rename it to legacy.ts or move the declaration into a .ts file",
  },
  {
    fixture: "generic-param",
    file: "svc/api.ts",
    at: "export const wrap",
    message: 'unsupported type "T" in field "value" of the request of svc.wrap: generic type parameters must be resolved to concrete types',
  },
  {
    fixture: "never-field",
    file: "svc/api.ts",
    at: "nothing: never;",
    message: 'unsupported type "never" in field "nothing" of Impossible: never has no values',
  },
  {
    fixture: "promise-field",
    file: "svc/api.ts",
    at: "result: Promise<string>;",
    message: 'unsupported type "Promise<string>" in field "result" of Later: Promise is not serializable',
  },
];

describe("parse errors name file, line and construct", () => {
  it.each(CASES)("$fixture", (testCase) => {
    const root = fixture(`errors/${testCase.fixture}`);
    const line = lineOf(root, testCase.file, testCase.at);
    const error = parseError(root);
    expect(error.message).toBe(`${testCase.file}:${line}: ${testCase.message}`);
    expect(error.file).toBe(testCase.file);
    expect(error.line).toBe(line);
  });

  it("says so when encore.dev is not installed", () => {
    // Outside /work/main no parent folder has node_modules/encore.dev.
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "parser-no-sdk-"));
    try {
      fs.mkdirSync(path.join(root, "svc"));
      fs.writeFileSync(path.join(root, "svc/encore.service.ts"), 'import { Service } from "encore.dev/service";\nexport default new Service("svc");\n');
      expect(parseError(root).message).toBe('svc/encore.service.ts:1: cannot resolve "encore.dev/service": is the encore.dev package installed?');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("names the installed encore.dev, and the release a module came with, when the app imports a newer module", () => {
    // An encore.dev as 1.46 published it: its exports end before encore.dev/metrics (1.53.0).
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "parser-old-sdk-"));
    try {
      const sdk = path.join(root, "node_modules", "encore.dev");
      fs.mkdirSync(path.join(sdk, "service"), { recursive: true });
      const exports = { ".": { types: "./mod.ts" }, "./service": { types: "./service/mod.ts" } };
      fs.writeFileSync(path.join(sdk, "package.json"), JSON.stringify({ name: "encore.dev", version: "1.46.22", type: "module", exports }));
      fs.writeFileSync(path.join(sdk, "mod.ts"), "export {};\n");
      fs.writeFileSync(path.join(sdk, "service", "mod.ts"), "export class Service { constructor(readonly name: string) {} }\n");
      fs.mkdirSync(path.join(root, "svc"));
      fs.writeFileSync(path.join(root, "svc/encore.service.ts"), 'import { Service } from "encore.dev/service";\nexport default new Service("svc");\n');
      fs.writeFileSync(path.join(root, "svc/metrics.ts"), 'import { Counter } from "encore.dev/metrics";\nexport const hits = new Counter("hits");\n');
      expect(parseError(root).message).toBe(
        'svc/metrics.ts:1: cannot resolve "encore.dev/metrics": the installed encore.dev 1.46.22 predates it (it came with encore.dev 1.53.0): npm install encore.dev@latest',
      );
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("refuses a declaration behind a symbolic link to a folder outside the app, which Encore's parser does not follow", () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "parser-link-"));
    try {
      const root = path.join(work, "app");
      fs.mkdirSync(path.join(root, "svc"), { recursive: true });
      fs.writeFileSync(path.join(root, "svc/encore.service.ts"), 'import { Service } from "encore.dev/service";\nexport default new Service("svc");\n');
      fs.mkdirSync(path.join(work, "shared"));
      fs.writeFileSync(path.join(work, "shared/jobs.ts"), 'import { CronJob } from "encore.dev/cron";\n\nexport const nightly = new CronJob("nightly", { every: "24h", endpoint: undefined as never });\n');
      fs.symlinkSync(path.join(work, "shared"), path.join(root, "svc/shared"));
      const error = parseError(root);
      expect(error.message).toBe(
        "svc/shared/jobs.ts:3: new CronJob(...) is not read, so it would not exist: it lies behind the symbolic link svc/shared, which Encore's parser does not follow: move the file into the app",
      );
      expect([error.file, error.line]).toEqual(["svc/shared/jobs.ts", 3]);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it("rejects an app root that does not exist", () => {
    expect(() => parseApp(fixture("no-such-app"))).toThrow(ParseError);
  });
});
