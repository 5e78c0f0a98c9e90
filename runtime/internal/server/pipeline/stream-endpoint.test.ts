// Stream endpoints over real WebSockets: the fixture app under parser/testdata/streams/app,
// parsed by the real parser and served by the real server, reached with the ws client.
// Calls through ~encore/clients look endpoints up in the registry, which here serves the
// fixture's endpoints instead of the app's (the runtime serves one app per process).
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import WebSocket from "ws";
import { streamInOut, streamIn, streamOut } from "../../../encore.dev/internal/codegen/api/mod.ts";
import { config } from "../../config/mod.ts";
import { fixture } from "../../../test/parser-fixtures.ts";
import { parseApp } from "../../parser/mod.ts";
import type { AuthHandlerEntry, Endpoint } from "../../registry/endpoints.ts";
import { buildHttpServer } from "../http-server.ts";

const registry = vi.hoisted(() => ({ endpoints: new Map<string, unknown>(), auth: null as unknown }));
vi.mock("../../registry/endpoints.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../registry/endpoints.ts")>()),
  loadEndpoints: async () => registry.endpoints,
  loadAuthHandler: async () => registry.auth,
}));

const root = fixture("streams/app");

async function fixtureServer(): Promise<{ http: FastifyInstance; base: string }> {
  const meta = parseApp(root);
  const streams = (await import("../../parser/testdata/streams/app/chat/streams.ts")) as Record<string, unknown>;
  const gate = await import("../../parser/testdata/streams/app/gate/auth.ts");
  const endpoints: Endpoint[] = meta.services.flatMap((s) => s.endpoints.map((e) => ({ meta: e, handler: streams[e.name] })));
  for (const e of endpoints) registry.endpoints.set(`${e.meta.service}.${e.meta.name}`, e);
  const auth = { meta: meta.auth!, handler: gate.auth } as unknown as AuthHandlerEntry;
  registry.auth = auth;
  const cfg = { appRoot: root, exposeInternalErrors: false, pubsubAdminToken: null, objects: config().objects, trustProxy: false };
  const server = await buildHttpServer(endpoints, cfg, { auth });
  await server.listen({ host: "127.0.0.1", port: 0 });
  const address = server.server.address();
  return { http: server, base: `ws://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` };
}

interface Session {
  readonly ws: WebSocket;
  /** Every message received so far, parsed. */
  readonly messages: unknown[];
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Resolves once `count` messages have arrived. */
  received(count: number): Promise<unknown[]>;
}

function open(url: string, options: WebSocket.ClientOptions = {}, protocols?: string[]): Promise<Session> {
  const ws = new WebSocket(url, protocols, options);
  const messages: unknown[] = [];
  const waiters: (() => void)[] = [];
  ws.on("message", (data) => {
    messages.push(JSON.parse(String(data)));
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: String(reason) })));
  const received = async (count: number) => {
    while (messages.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    return messages;
  };
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve({ ws, messages, closed, received }));
    ws.once("error", reject);
  });
}

/** The HTTP answer to a handshake the server refuses. */
function refusal(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on("open", () => reject(new Error(`${url} was accepted`)));
    ws.on("error", () => {}); // follows the unexpected response
    ws.on("unexpected-response", (_req, res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += String(chunk)));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
  });
}

let server: Awaited<ReturnType<typeof fixtureServer>>;
beforeAll(async () => {
  server = await fixtureServer();
});
afterAll(async () => {
  await server.http.close();
});

describe("api.streamOut", () => {
  test("gets its handshake from path, query and header, sends each message, and closes normally", async () => {
    const s = await open(`${server.base}/rooms/lobby/ticks?limit=3`, { headers: { "X-Nick": "ann" } });
    expect(await s.closed).toEqual({ code: 1000, reason: "" });
    expect(s.messages).toEqual([1, 2, 3].map((n) => ({ room: "lobby", n, nick: "ann" })));
  });

  test("a handshake that does not match its type is refused with 400 in Encore's format, before any upgrade", async () => {
    expect(await refusal(`${server.base}/rooms/lobby/ticks?limit=many`, { "X-Nick": "ann" })).toEqual({
      status: 400,
      body: { code: "invalid_argument", message: "unable to decode query string: limit: expected a number, got many", details: null },
    });
    expect(await refusal(`${server.base}/rooms/lobby/ticks?limit=1`)).toEqual({
      status: 400,
      body: { code: "invalid_argument", message: "missing required header: x-nick", details: null },
    });
  });
});

describe("a handler that fails", () => {
  test("closes its stream with 1011 (internal error), after what it sent", async () => {
    const s = await open(`${server.base}/explode`);
    expect(await s.closed).toEqual({ code: 1011, reason: "internal error" });
    expect(s.messages).toEqual([{ text: "first", seq: 1 }]);
  });
});

describe("api.streamIn", () => {
  test("hands the handler each message, with Dates revived, and sends its return value last", async () => {
    const s = await open(`${server.base}/upload`);
    s.ws.send(JSON.stringify({ text: "a" }));
    s.ws.send(JSON.stringify({ text: "b", at: "2024-05-01T10:00:00.000Z" }));
    s.ws.send(JSON.stringify({ text: "stop" }));
    expect(await s.closed).toEqual({ code: 1000, reason: "" });
    expect(s.messages).toEqual([{ count: 2, texts: ["a", "b@2024-05-01T10:00:00.000Z"] }]);
  });
});

describe("api.streamInOut", () => {
  test("answers each message as it comes, and closes when the handler closes", async () => {
    const s = await open(`${server.base}/echo`);
    s.ws.send(JSON.stringify({ text: "one" }));
    expect(await s.received(1)).toEqual([{ text: "one", seq: 1 }]);
    s.ws.send(JSON.stringify({ text: "two" }));
    expect(await s.received(2)).toEqual([
      { text: "one", seq: 1 },
      { text: "two", seq: 2 },
    ]);
    s.ws.send(JSON.stringify({ text: "bye" }));
    expect((await s.closed).code).toBe(1000);
  });

  test("drops a message that does not match the incoming type, as Encore does, and goes on", async () => {
    const s = await open(`${server.base}/echo`);
    s.ws.send(JSON.stringify({ text: 5 }));
    s.ws.send("not json");
    s.ws.send(JSON.stringify({ text: "ok", at: "yesterday" }));
    s.ws.send(JSON.stringify({ text: "fine" }));
    expect(await s.received(1)).toEqual([{ text: "fine", seq: 1 }]);
    expect(s.ws.readyState).toBe(WebSocket.OPEN);
    s.ws.close();
  });

  test("agrees to Encore's encore-ws subprotocol when the client asks for it", async () => {
    const s = await open(`${server.base}/echo`, {}, ["encore-ws"]);
    expect(s.ws.protocol).toBe("encore-ws");
    s.ws.close();
  });
});

describe("the handshake", () => {
  test("of an auth: true endpoint without credentials is refused with 401 unauthenticated", async () => {
    expect(await refusal(`${server.base}/whoami`)).toMatchObject({ status: 401, body: { code: "unauthenticated" } });
    expect(await refusal(`${server.base}/whoami`, { Authorization: "Bearer mallory" })).toEqual({
      status: 401,
      body: { code: "unauthenticated", message: "invalid token", details: null },
    });
  });

  test("with valid credentials runs the handler with the caller's auth data", async () => {
    const s = await open(`${server.base}/whoami`, { headers: { Authorization: "Bearer alice" } });
    await s.closed;
    expect(s.messages).toEqual([{ text: "alice", seq: 1 }]);
  });

  test("of an endpoint that is not exposed, or of no endpoint, is answered 404", async () => {
    expect(await refusal(`${server.base}/internal/echo`, { "X-Prefix": ">" })).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect(await refusal(`${server.base}/nowhere`)).toMatchObject({ status: 404, body: { code: "not_found" } });
  });

  test("is needed: a plain GET of a stream endpoint is answered 400", async () => {
    const res = await fetch(`${server.base.replace("ws:", "http:")}/echo`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "invalid_argument" });
  });
});

describe("headers in the subprotocol list, as Encore's clients send them", () => {
  const entry = (headers: Record<string, string>) => `encore.dev.headers.${Buffer.from(JSON.stringify(headers)).toString("base64url")}`;

  test("fill the handshake's Header fields; only encore-ws is agreed to", async () => {
    const s = await open(`${server.base}/rooms/lobby/ticks?limit=1`, {}, ["encore-ws", entry({ "X-Nick": "bob" })]);
    expect(s.ws.protocol).toBe("encore-ws");
    await s.closed;
    expect(s.messages).toEqual([{ room: "lobby", n: 1, nick: "bob" }]);
  });

  test("carry the auth handler's Authorization header", async () => {
    const s = await open(`${server.base}/whoami`, {}, ["encore-ws", entry({ authorization: "Bearer alice" })]);
    await s.closed;
    expect(s.messages).toEqual([{ text: "alice", seq: 1 }]);
    expect(await refusal(`${server.base}/whoami`, { "Sec-WebSocket-Protocol": `encore-ws, ${entry({ authorization: "Bearer mallory" })}` })).toEqual({
      status: 401,
      body: { code: "unauthenticated", message: "invalid token", details: null },
    });
  });

  test("are refused with 400 invalid_argument when malformed, or when they set a header a browser may not", async () => {
    expect(await refusal(`${server.base}/echo`, { "Sec-WebSocket-Protocol": "encore-ws, encore.dev.headers.e30=" })).toMatchObject({
      status: 400,
      body: { code: "invalid_argument", message: expect.stringMatching(/^invalid headers in the WebSocket subprotocol/) },
    });
    expect(await refusal(`${server.base}/echo`, { "Sec-WebSocket-Protocol": `encore-ws, ${entry({ Cookie: "a=b" })}` })).toEqual({
      status: 400,
      body: { code: "invalid_argument", message: 'header "cookie" may not be set through the WebSocket subprotocol', details: null },
    });
  });
});

describe("calls through ~encore/clients", () => {
  test("open an in-process stream: handshake validated, messages both ways, internal endpoints reachable", async () => {
    const stream = await streamInOut("chat", "internalEcho", { prefix: "> " });
    await stream.send({ text: "hi" });
    expect(await stream.recv()).toEqual({ text: "> hi", seq: 1 });
    await stream.close();
    await expect(stream.recv()).rejects.toThrow("the stream is closed");
    await expect(streamInOut("chat", "internalEcho", {})).rejects.toMatchObject({ code: "invalid_argument" });
  });

  test("get streamIn's response, and iterate a streamOut until it closes", async () => {
    const upload = await streamIn("chat", "upload", undefined);
    await upload.send({ text: "x" });
    await upload.send({ text: "stop" });
    expect(await upload.response()).toEqual({ count: 1, texts: ["x"] });
    const ticks = await streamOut("chat", "ticks", { room: "r", limit: 2, nick: "n" });
    const seen: unknown[] = [];
    for await (const tick of ticks) seen.push(tick);
    expect(seen).toEqual([
      { room: "r", n: 1, nick: "n" },
      { room: "r", n: 2, nick: "n" },
    ]);
  });

  test("to an auth: true stream need the caller's auth data", async () => {
    await expect(streamOut("chat", "whoami", undefined)).rejects.toMatchObject({ code: "unauthenticated" });
    const s = await streamOut("chat", "whoami", undefined, { authData: { userID: "carol" } } as never);
    expect(await s.recv()).toEqual({ text: "carol", seq: 1 });
  });
});

describe("shutdown", () => {
  test("closes open streams as going away (1001), and the server stops", async () => {
    const own = await fixtureServer();
    const s = await open(`${own.base}/echo`);
    s.ws.send(JSON.stringify({ text: "hello" }));
    await s.received(1);
    await own.http.close();
    expect((await s.closed).code).toBe(1001);
  });
});
