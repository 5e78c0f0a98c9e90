import { describe, expect, it } from "vitest";
import { renderClients, renderHandlers } from "../../codegen/render.ts";
import { fixture, lineOf, parseError } from "../../../test/parser-fixtures.ts";
import { parseApp } from "../mod.ts";

describe("a folder declaring endpoints without encore.service.ts", () => {
  const meta = parseApp(fixture("implicit-services"));

  it("is a service named after the folder, as Encore finds one; subfolders belong to it, folders of nested services are their own", () => {
    expect(meta.services.map((s) => [s.name, s.dir, s.endpoints.map((e) => e.name)])).toEqual([
      ["events", "events", []],
      ["shop", "shop", ["pay"]],
      ["svc1", "systemA/svc1", ["foo"]],
      ["svc2", "systemA/svc2", ["bar"]],
      ["todo", "todo", ["list", "count"]],
    ]);
  });

  it("owns the databases and pub/sub declared in it", () => {
    expect(meta.databases.map((d) => [d.name, d.service, d.migrationsDir])).toEqual([["todo", "todo", "todo/migrations"]]);
    expect(meta.topics.map((t) => [t.name, t.service])).toEqual([["signups", "events"]]);
    expect(meta.subscriptions.map((s) => [s.name, s.service])).toEqual([["welcome", "events"]]);
  });

  it("gets its ~encore/clients module and its handlers registered like any service", () => {
    const clients = renderClients(meta);
    expect(clients.find((f) => f.path === "clients/index.ts")?.content).toContain('export * as todo from "./todo";');
    expect(clients.find((f) => f.path === "clients/todo.ts")?.content).toMatch(/export function list\(opts\?: CallOpts\)[\s\S]*apiCall\("todo", "list"/);
    const handlers = renderHandlers(meta).content;
    expect(handlers).toContain('"todo.count": todo_store_count.count,');
    expect(handlers).toContain('"svc1.foo": systemA_svc1_foo.foo,');
  });

  it("gets Encore's default paths, which carry the folder's name", () => {
    const svc1 = meta.services.find((s) => s.name === "svc1");
    expect(svc1?.endpoints[0]?.path).toBe("/svc1.foo");
  });
});

describe("services found by folder that Encore refuses", () => {
  it.each([
    {
      fixture: "nested",
      file: "outer/api.ts",
      at: "api(",
      message: "service inner cannot be contained within service outer, which this declaration makes of folder outer (it has no encore.service.ts)",
    },
    {
      fixture: "duplicate",
      file: "a/users/api.ts",
      at: "api(",
      message: 'service "users" is defined twice: by folder a/users (it has no encore.service.ts) and by b',
    },
    {
      fixture: "bad-name",
      file: "my.svc/api.ts",
      at: "api(",
      message: 'folder "my.svc" is a service (it declares endpoints without an encore.service.ts), but "my.svc" is not a valid service name: use letters, digits, "_" and "-", or add encore.service.ts with a valid name',
    },
  ])("$fixture", (testCase) => {
    const root = fixture(`implicit-service-errors/${testCase.fixture}`);
    const line = lineOf(root, testCase.file, testCase.at);
    const error = parseError(root);
    expect(error.message).toBe(`${testCase.file}:${line}: ${testCase.message}`);
  });
});
