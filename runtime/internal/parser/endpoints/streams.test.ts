import { describe, expect, it } from "vitest";
import type { JSONSchema } from "../../meta/types.ts";
import { endpointOf, fixture, lineOf, parseError, withoutRefs } from "../../../test/parser-fixtures.ts";
import { parseApp } from "../mod.ts";

const root = fixture("streams/app");
const meta = parseApp(root);

const date: JSONSchema = { type: "string", format: "date-time", "x-encore-type": "date" };
const note: JSONSchema = {
  type: "object",
  properties: { text: { type: "string" }, at: { ...date, description: "When the client wrote it." } },
  required: ["text"],
};
const echo: JSONSchema = { type: "object", properties: { text: { type: "string" }, seq: { type: "number" } }, required: ["text", "seq"] };
const summary: JSONSchema = {
  type: "object",
  properties: { count: { type: "number" }, texts: { type: "array", items: { type: "string" } } },
  required: ["count", "texts"],
};

describe("streaming endpoints", () => {
  it("are stream endpoints answering a GET handshake, with StreamOptions read like api()'s", () => {
    const upload = endpointOf(meta, "chat", "upload");
    expect(upload).toMatchObject({ kind: "stream", methods: ["GET"], path: "/upload", expose: true, auth: false, response: null });
    expect(upload.line).toBe(lineOf(root, "chat/streams.ts", "export const upload"));
    expect(endpointOf(meta, "chat", "whoami")).toMatchObject({ auth: true, expose: true });
    expect(endpointOf(meta, "chat", "internalEcho").expose).toBe(false);
  });

  it("streamIn<Incoming, Response> without a handshake reads the response from its second type argument", () => {
    const upload = endpointOf(meta, "chat", "upload");
    expect(upload.request).toBeNull();
    expect(withoutRefs(upload.stream)).toEqual({ direction: "in", incoming: note, outgoing: summary });
  });

  it("streamIn<Handshake, Incoming, Response> reads all three type arguments in that order", () => {
    const tally = endpointOf(meta, "chat", "tally");
    expect(withoutRefs(tally.stream)).toEqual({ direction: "in", incoming: note, outgoing: summary });
    expect(tally.request?.fields).toEqual([{ name: "label", location: "query", wireName: "label", optional: false }]);
  });

  it("places handshake fields as a GET request's: path parameters, Query (the default) and Header", () => {
    const ticks = endpointOf(meta, "chat", "ticks");
    expect(ticks.pathParams).toEqual([{ name: "room", wildcard: false }]);
    expect(ticks.request).toMatchObject({
      fields: [
        { name: "room", location: "path", wireName: "room", optional: false },
        { name: "limit", location: "query", wireName: "limit", optional: false },
        { name: "nick", location: "header", wireName: "x-nick", optional: false },
      ],
      query: { type: "object", properties: { limit: { type: "number" } }, required: ["limit"] },
      headers: { type: "object", properties: { "x-nick": { type: "string" } }, required: ["x-nick"] },
      body: null,
    });
  });

  it("streamOut<Handshake, Outgoing> and streamInOut<Incoming, Outgoing> carry their message types", () => {
    const tick: JSONSchema = {
      type: "object",
      properties: { room: { type: "string" }, n: { type: "number" }, nick: { type: "string" } },
      required: ["room", "n", "nick"],
    };
    expect(withoutRefs(endpointOf(meta, "chat", "ticks").stream)).toEqual({ direction: "out", incoming: null, outgoing: tick });
    expect(withoutRefs(endpointOf(meta, "chat", "echo").stream)).toEqual({ direction: "inout", incoming: note, outgoing: echo });
    expect(endpointOf(meta, "chat", "echo").request).toBeNull();
  });
});

describe("streaming endpoints Encore would reject", () => {
  const cases = [
    {
      fixture: "no-type-args",
      at: "export const feed",
      message: "missing type parameters in call to api.streamOut of endpoint svc.feed: write api.streamOut<Handshake?, Outgoing>(...)",
    },
    {
      fixture: "wrong-arity",
      at: "export const chat",
      message:
        "api.streamInOut of endpoint svc.chat has 2 type parameters; with a handler that takes the handshake and the stream it needs 3 (<Handshake?, Incoming, Outgoing>)",
    },
    {
      fixture: "string-message",
      at: "export const lines",
      message: 'unsupported type "string" in the outgoing message of svc.lines: stream messages must be object types',
    },
    { fixture: "method-option", at: 'method: "POST"', message: 'unknown option "method" of endpoint svc.feed' },
  ];
  for (const c of cases) {
    it(`${c.fixture}: fails at generation, naming file and line`, () => {
      const app = fixture(`streams/${c.fixture}`);
      const error = parseError(app);
      expect(error.message).toBe(`svc/api.ts:${lineOf(app, "svc/api.ts", c.at)}: ${c.message}`);
    });
  }
});
