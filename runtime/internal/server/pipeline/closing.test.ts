// A request that reaches the server once it began to close, on a connection that was
// already open, is refused in Encore's error format.
import { connect } from "node:net";
import { expect, test } from "vitest";
import { obj, testEndpoint } from "../../../test/endpoints.ts";
import { config } from "../../config/mod.ts";
import { buildHttpServer } from "../http-server.ts";

test("a request arriving while the server closes is 503 unavailable in Encore's format, its connection closed", async () => {
  let started!: () => void;
  const handlerStarted = new Promise<void>((resolve) => (started = resolve));
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const slow = testEndpoint("slow", { methods: ["POST"], path: "/slow", response: obj({ ok: { type: "boolean" } }) }, async () => {
    started();
    await finished;
    return { ok: true };
  });
  const server = await buildHttpServer([slow], { appRoot: process.cwd(), exposeInternalErrors: false, pubsubAdminToken: null, objects: config().objects, trustProxy: false });
  await server.listen({ host: "127.0.0.1", port: 0 });
  const { port } = server.server.address() as { port: number };

  const socket = connect(port, "127.0.0.1");
  let received = "";
  socket.on("data", (chunk) => (received += chunk.toString()));
  const ended = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  socket.write("POST /slow HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}");
  await handlerStarted;
  const closed = server.close();
  // The second request of the connection, pipelined behind the one in flight.
  socket.write("GET /slow HTTP/1.1\r\nhost: x\r\n\r\n");
  await new Promise((resolve) => setTimeout(resolve, 50));
  finish();
  await ended;
  await closed;

  const answers = received.split(/(?=HTTP\/1\.1 )/);
  expect(answers).toHaveLength(2);
  expect(answers[0]).toMatch(/^HTTP\/1\.1 200 /);
  expect(answers[1]).toMatch(/^HTTP\/1\.1 503 /);
  expect(answers[1]).toMatch(/\r\nconnection: close\r\n/i);
  expect(JSON.parse(answers[1]!.slice(answers[1]!.indexOf("\r\n\r\n") + 4))).toEqual({
    code: "unavailable",
    message: "the server is shutting down",
    details: null,
  });
});
