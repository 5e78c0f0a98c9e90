import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { runtimeDir } from "../config/app-root.ts";
import { runToEnd, startServing, userEnv, type Serving } from "../../test/command.ts";
import { clientFixture, fixtureMeta } from "../../test/client-fixture.ts";
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

describe("the TypeScript client's streams against a running app", () => {
  // The generated client uses the global WebSocket, as in a browser. Node 20 has none: the
  // ws package (the runtime's own dependency) stands in for it, as a Node front end would do.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type Module = any;
  let mod: Module;
  const saved = (globalThis as { WebSocket?: unknown }).WebSocket;
  beforeAll(async () => {
    (globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;
    mod = (await import(pathToFileURL(tsFile).href)) as Module;
  });
  afterAll(() => {
    (globalThis as { WebSocket?: unknown }).WebSocket = saved;
  });

  it("exchanges messages both ways over an api.streamInOut, with path, header and query handshake fields", async () => {
    const chat = await new mod.default(server.url).live.chat("lobby", { nick: "ann", loud: true });
    await chat.send({ text: "hi" });
    expect(await chat.next()).toEqual({ room: "lobby", nick: "ann", text: "HI", seq: 1 });
    await chat.send({ text: "there" });
    expect(await chat.next()).toEqual({ room: "lobby", nick: "ann", text: "THERE", seq: 2 });
    await chat.send({ text: "bye" });
    expect(await chat.next()).toBeUndefined(); // the server closed the stream
    expect(chat.socket.ws.protocol).toBe("encore-ws");
  });

  it("sends to an api.streamIn and gets its response", async () => {
    const count = await new mod.default(server.url).live.count();
    for (const text of ["a", "b", "c", "done"]) await count.send({ text });
    expect(await count.response()).toEqual({ lines: 3 });
  });

  it("opens an auth: true stream with options.auth: a header (sent in the subprotocol) or a query parameter", async () => {
    const read = async (client: Module) => {
      const seen: unknown[] = [];
      for await (const said of await client.live.greet()) seen.push(said);
      return seen;
    };
    const hello = [{ room: "", nick: "alice", text: "hello", seq: 1 }];
    expect(await read(new mod.default(server.url, { auth: { authorization: "Bearer good" } }))).toEqual(hello);
    expect(await read(new mod.default(server.url, { auth: async () => ({ apiKey: "key" }) }))).toEqual(hello);
  });

  it("surfaces a refused handshake as a StreamClosedError from the iteration, next(), send() and response()", async () => {
    const anonymous = new mod.default(server.url);
    const iterate = async () => {
      for await (const said of await anonymous.live.greet()) void said;
    };
    const refused = await iterate().catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(mod.StreamClosedError);
    expect(refused).toMatchObject({ name: "StreamClosedError", closeCode: 1006 });
    expect((refused as Error).message).toMatch(/^the stream could not be opened: .*401/); // ws says which status; browsers do not
    await expect((await anonymous.with({ auth: { authorization: "Bearer bad" } }).live.greet()).next()).rejects.toBeInstanceOf(mod.StreamClosedError);

    const chat = await anonymous.live.chat("lobby", { nick: "ann", loud: "maybe" }); // not a boolean: answered 400
    await expect(chat.send({ text: "x" })).rejects.toThrow(/^the stream could not be opened: .*400/);
    const count = await new mod.default("http://127.0.0.1:1").live.count(); // nothing listens there
    await expect(count.send({ text: "a" })).rejects.toBeInstanceOf(mod.StreamClosedError);
    await expect(count.response()).rejects.toBeInstanceOf(mod.StreamClosedError);
  });
});

describe("the JavaScript client against a running app", () => {
  it("makes the same calls from plain node", async () => {
    // No global WebSocket in Node 20: the ws package stands in for it, as in the TypeScript test.
    const ws = pathToFileURL(createRequire(import.meta.url).resolve("ws")).href;
    const script = `
      import Client, { isAPIError, ErrCode } from ${JSON.stringify(pathToFileURL(jsFile).href)};
      import WebSocket from ${JSON.stringify(ws)};
      globalThis.WebSocket = WebSocket;
      const client = new Client(${JSON.stringify(server.url)}, { auth: { authorization: "Bearer good" } });
      const out = {};
      await client.shop.rename(1, { name: "js lamp" });
      out.get = await client.shop.get(1, {});
      out.search = await client.shop.search({ q: "js" });
      out.whoami = await client.gate.whoami();
      out.raw = await (await client.shop.hook("POST", "7", "x")).text();
      const chat = await client.live.chat("js", { nick: "node" });
      await chat.send({ text: "hi" });
      out.chat = await chat.next();
      chat.close();
      out.greet = await (await client.live.greet()).next();
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
      chat: { room: "js", nick: "node", text: "hi", seq: 1 },
      greet: { nick: "alice", text: "hello" },
      error: { is: true, code: "not_found", notFound: true, status: 404 },
    });
  });
});
