import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { APIError } from "../../errors/api-error.ts";
import { applySubprotocolHeaders, decodeHeaderEntry, isForbiddenHeader } from "./websocket-headers.ts";

const entry = (headers: unknown) => `encore.dev.headers.${Buffer.from(JSON.stringify(headers)).toString("base64url")}`;

/** A request as node:http makes it: rawHeaders, and headers built from them on first read. */
function request(rawHeaders: string[]): IncomingMessage {
  let headers: Record<string, string | string[] | undefined> | undefined;
  return {
    rawHeaders,
    get headers() {
      if (!headers) {
        headers = {};
        for (let i = 0; i < rawHeaders.length; i += 2) {
          const name = rawHeaders[i]!.toLowerCase();
          const value = rawHeaders[i + 1]!;
          headers[name] = headers[name] === undefined || name === "authorization" ? (headers[name] ?? value) : `${String(headers[name])}, ${value}`;
        }
      }
      return headers;
    },
  } as unknown as IncomingMessage;
}

function refusal(fn: () => unknown): APIError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(APIError);
    return err as APIError;
  }
  throw new Error("not refused");
}

describe("decodeHeaderEntry", () => {
  it("reads unpadded base64url JSON, lower-casing names", () => {
    const payload = entry({ Authorization: "Bearer x", "X-Nick": "ann?>" }).slice("encore.dev.headers.".length);
    expect(decodeHeaderEntry(payload)).toEqual([
      ["authorization", "Bearer x"],
      ["x-nick", "ann?>"],
    ]);
    expect(decodeHeaderEntry("e30")).toEqual([]); // {}
  });

  it("refuses what is not unpadded base64url of a JSON object of strings, with invalid_argument", () => {
    for (const bad of ["e30=", "e30+", "!!", "a", Buffer.from("[1]").toString("base64url"), Buffer.from("nope").toString("base64url"),
      Buffer.from('{"a":1}').toString("base64url"), Buffer.from('{"a b":"c"}').toString("base64url"),
      Buffer.from('{"a":"x\\ny"}').toString("base64url"), Buffer.from([0x7b, 0xff, 0x7d]).toString("base64url")]) {
      const err = refusal(() => decodeHeaderEntry(bad));
      expect(err.code, bad).toBe("invalid_argument");
      expect(err.message).toMatch(/^invalid headers in the WebSocket subprotocol/);
    }
  });

  it("refuses the headers a browser may not set, naming them", () => {
    for (const name of ["Cookie", "host", "origin", "sec-websocket-key", "proxy-authorization", "upgrade", "keep-alive"]) {
      const err = refusal(() => decodeHeaderEntry(Buffer.from(JSON.stringify({ [name]: "v" })).toString("base64url")));
      expect(err).toMatchObject({ code: "invalid_argument", message: `header "${name.toLowerCase()}" may not be set through the WebSocket subprotocol` });
    }
    expect(isForbiddenHeader("authorization")).toBe(false);
    expect(isForbiddenHeader("x-nick")).toBe(false);
  });
});

describe("applySubprotocolHeaders", () => {
  it("adds the headers and takes the entry out of the subprotocol list", () => {
    const req = request(["Host", "h", "Sec-WebSocket-Protocol", `encore-ws, ${entry({ authorization: "Bearer a", "x-nick": "ann" })}`]);
    applySubprotocolHeaders(req);
    expect(req.headers).toMatchObject({ host: "h", "sec-websocket-protocol": "encore-ws", authorization: "Bearer a", "x-nick": "ann" });
    expect(req.rawHeaders).toEqual(["Host", "h", "Sec-WebSocket-Protocol", "encore-ws", "authorization", "Bearer a", "x-nick", "ann"]);
  });

  it("drops the protocol header when nothing else was offered, and reads entries across repeated headers", () => {
    const req = request(["Sec-WebSocket-Protocol", entry({ a: "1" }), "sec-websocket-protocol", entry({ b: "2" })]);
    applySubprotocolHeaders(req);
    expect(req.headers).toEqual({ a: "1", b: "2" });
    expect(req.rawHeaders).toEqual(["a", "1", "b", "2"]);
  });

  it("adds to headers the request carried, as a repeated header: Authorization keeps the first, others are joined", () => {
    const req = request(["Authorization", "Bearer own", "X-Tag", "one", "Sec-WebSocket-Protocol", `${entry({ authorization: "Bearer sub", "x-tag": "two" })}, encore-ws`]);
    applySubprotocolHeaders(req);
    expect(req.headers).toMatchObject({ authorization: "Bearer own", "x-tag": "one, two", "sec-websocket-protocol": "encore-ws" });
  });

  it("drops X-Forwarded-For: the client's address is not the client's to say", () => {
    const req = request(["X-Forwarded-For", "10.0.0.1", "Sec-WebSocket-Protocol", `encore-ws, ${entry({ "X-Forwarded-For": "6.6.6.6", a: "1" })}`]);
    applySubprotocolHeaders(req);
    expect(req.headers).toMatchObject({ "x-forwarded-for": "10.0.0.1", a: "1" });
    expect(req.rawHeaders).toEqual(["X-Forwarded-For", "10.0.0.1", "Sec-WebSocket-Protocol", "encore-ws", "a", "1"]);
  });

  it("leaves a request without entries untouched, and changes nothing when it refuses", () => {
    const plain = ["Sec-WebSocket-Protocol", "encore-ws"];
    const req = request([...plain]);
    applySubprotocolHeaders(req);
    expect(req.rawHeaders).toEqual(plain);
    const bad = ["Sec-WebSocket-Protocol", `encore-ws, ${entry({ a: "1" })}, encore.dev.headers.!!`];
    const refused = request([...bad]);
    expect(refusal(() => applySubprotocolHeaders(refused)).code).toBe("invalid_argument");
    expect(refused.rawHeaders).toEqual(bad);
  });
});
