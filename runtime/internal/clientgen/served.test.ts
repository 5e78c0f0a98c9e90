import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runtimeDir } from "../config/app-root.ts";
import { runToEnd, startServing, userEnv, type Serving } from "../../test/command.ts";
import { clientFixture, fixtureMeta } from "./fixture.ts";
import { generateClient } from "./mod.ts";

// The generated clients against the fixture app served by `encore-selfhost start` (no database needed).
const dir = mkdtempSync(path.join(tmpdir(), "clientgen-served-"));
const tsFile = path.join(dir, "client.ts");
const jsFile = path.join(dir, "client.js");
let server: Serving;

beforeAll(async () => {
  const meta = fixtureMeta();
  writeFileSync(tsFile, generateClient(meta, { lang: "typescript", appSlug: "fixture" }));
  writeFileSync(jsFile, generateClient(meta, { lang: "javascript", appSlug: "fixture" }));
  writeFileSync(path.join(dir, "package.json"), '{ "type": "module" }');
  server = await startServing(process.execPath, [path.join(runtimeDir(), "cli", "main.mjs"), "start"], clientFixture, userEnv({ PORT: "0" }));
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the TypeScript client against a running app", () => {
  // Imported as a front end would import it; vitest transpiles it. Its types are checked by typescript.test.ts.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type Module = any;
  let mod: Module;
  beforeAll(async () => {
    mod = (await import(pathToFileURL(tsFile).href)) as Module;
  });

  it("calls with path parameters and a body, and with a query", async () => {
    const client = new mod.default(server.url);
    await client.shop.rename(1, { name: "desk lamp" });
    expect(await client.shop.get(1, {})).toMatchObject({ id: 1, name: "desk lamp", created: "2024-01-02T03:04:05.000Z" });
    expect(await client.shop.get(1, { verbose: true, trace: "t1" })).toMatchObject({ tags: ["home", "trace:t1"] });
    expect(await client.shop.search({ q: "desk", tags: ["home"] })).toMatchObject({ total: 1, items: [{ id: 1 }] });
    expect(await client.shop.search({ q: "nothing" })).toEqual({ items: [], total: 0 });
    const created = await client.shop.create({ name: "chair", tags: ["a"], color: "red", idempotencyKey: "k1", dryRun: true });
    expect(created).toMatchObject({ name: "chair", color: "red", tags: ["a", "key:k1"] });
    expect(await client.shop.search({ q: "chair" })).toEqual({ items: [], total: 0 }); // dry_run went in the query
  });

  it("sends the auth handler's parameters from options.auth: an object, or a function, sync or async", async () => {
    const anonymous = new mod.default(server.url);
    await expect(anonymous.gate.whoami()).rejects.toMatchObject({ status: 401, code: mod.ErrCode.Unauthenticated });
    expect(await anonymous.with({ auth: { authorization: "Bearer good" } }).gate.whoami()).toEqual({ userID: "alice" });
    expect(await new mod.default(server.url, { auth: () => ({ apiKey: "key" }) }).gate.whoami()).toEqual({ userID: "alice" });
    expect(await new mod.default(server.url, { auth: async () => ({ authorization: "Bearer good" }) }).gate.whoami()).toEqual({ userID: "alice" });
  });

  it("calls a raw endpoint with a method, its path parameters and a body, answering the Response", async () => {
    const response = await new mod.default(server.url).shop.hook("PUT", "a b", "hello");
    expect(await response.text()).toBe("PUT /hook/a%20b hello");
  });

  it("decodes an error response as an APIError with its code", async () => {
    const error = await new mod.default(server.url).shop.get(99, {}).catch((err: unknown) => err);
    expect(mod.isAPIError(error)).toBe(true);
    expect(error).toBeInstanceOf(mod.APIError);
    expect(error).toMatchObject({ status: 404, code: mod.ErrCode.NotFound, message: "item not found", name: "APIError" });
  });
});

describe("the JavaScript client against a running app", () => {
  it("makes the same calls from plain node", async () => {
    const script = `
      import Client, { isAPIError, ErrCode } from ${JSON.stringify(pathToFileURL(jsFile).href)};
      const client = new Client(${JSON.stringify(server.url)}, { auth: { authorization: "Bearer good" } });
      const out = {};
      await client.shop.rename(1, { name: "js lamp" });
      out.get = await client.shop.get(1, {});
      out.search = await client.shop.search({ q: "js" });
      out.whoami = await client.gate.whoami();
      out.raw = await (await client.shop.hook("POST", "7", "x")).text();
      try { await client.shop.get(42, {}); } catch (err) { out.error = { is: isAPIError(err), code: err.code, notFound: err.code === ErrCode.NotFound, status: err.status }; }
      console.log(JSON.stringify(out));
    `;
    const { code, output } = await runToEnd(process.execPath, ["--input-type=module", "-e", script], dir);
    expect(code, output).toBe(0);
    expect(JSON.parse(output)).toMatchObject({
      get: { id: 1, name: "js lamp" },
      search: { total: 1 },
      whoami: { userID: "alice" },
      raw: "POST /hook/7 x",
      error: { is: true, code: "not_found", notFound: true, status: 404 },
    });
  });
});
