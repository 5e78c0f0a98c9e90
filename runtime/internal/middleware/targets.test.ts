import { describe, expect, test } from "vitest";
import type { EndpointMeta } from "../meta/types.ts";
import { middleware, type Middleware, type MiddlewareOptions } from "./middleware.ts";
import { checkedMiddlewares, middlewaresFor } from "./targets.ts";

function endpoint(partial: Partial<EndpointMeta>): EndpointMeta {
  return {
    service: "svc", name: "ep", kind: "typed", file: "svc/api.ts", line: 1, doc: null, expose: true, auth: false, methods: ["GET"],
    path: "/ep", pathParams: [], tags: [], sensitive: false, request: null, response: null, ...partial,
  };
}

const pass: Middleware = middleware(async (req, next) => next(req));
const targeting = (target: MiddlewareOptions["target"]) => middleware({ target }, async (req, next) => next(req));

describe("which middlewares target an endpoint", () => {
  test("a middleware without a target runs for every endpoint", () => {
    expect(middlewaresFor(endpoint({}), [pass])).toEqual([pass]);
    expect(middlewaresFor(endpoint({ kind: "raw", expose: false }), [pass])).toEqual([pass]);
  });

  test("every set option must match, and unset ones match anything", () => {
    const exposedAuth = targeting({ expose: true, auth: true });
    expect(middlewaresFor(endpoint({ expose: true, auth: true }), [exposedAuth])).toEqual([exposedAuth]);
    expect(middlewaresFor(endpoint({ expose: true, auth: false }), [exposedAuth])).toEqual([]);
    expect(middlewaresFor(endpoint({ expose: false, auth: true }), [exposedAuth])).toEqual([]);
  });

  test("isRaw tells raw endpoints from typed ones", () => {
    const rawOnly = targeting({ isRaw: true });
    const typedOnly = targeting({ isRaw: false });
    expect(middlewaresFor(endpoint({ kind: "raw" }), [rawOnly, typedOnly])).toEqual([rawOnly]);
    expect(middlewaresFor(endpoint({ kind: "typed" }), [rawOnly, typedOnly])).toEqual([typedOnly]);
  });

  test("no endpoint is a stream (the runtime refuses them), so isStream: true targets none", () => {
    const streams = targeting({ isStream: true });
    const notStreams = targeting({ isStream: false });
    expect(middlewaresFor(endpoint({}), [streams, notStreams])).toEqual([notStreams]);
  });

  test("tags match when the endpoint has any one of them; an empty list matches none", () => {
    const tagged = targeting({ tags: ["a", "b"] });
    const none = targeting({ tags: [] });
    expect(middlewaresFor(endpoint({ tags: ["b", "c"] }), [tagged, none])).toEqual([tagged]);
    expect(middlewaresFor(endpoint({ tags: ["c"] }), [tagged, none])).toEqual([]);
  });

  test("the service's order is kept", () => {
    const [a, b, c] = [targeting({ auth: false }), pass, targeting({ expose: true })];
    expect(middlewaresFor(endpoint({}), [a, b, c])).toEqual([a, b, c]);
  });
});

describe("a service's middlewares are checked at boot", () => {
  const check = (declared: unknown) => () => checkedMiddlewares("svc", "svc/encore.service.ts", declared);

  test("none declared is an empty list; a list of middlewares is kept as it is", () => {
    expect(check(undefined)()).toEqual([]);
    expect(check([pass])()).toEqual([pass]);
  });

  test.each([
    ["not an array", pass, 'the middlewares of service "svc" (svc/encore.service.ts) must be an array of middleware functions'],
    ["an entry that is not a function", [pass, { fn: pass }], "entry 1 is not a function; declare it with middleware() from encore.dev/api"],
    ["an unknown target option", [targeting({ method: "GET" } as never)], 'entry 0 has an unknown target option "method" (known: expose, auth, isRaw, isStream, tags)'],
    ["a target flag that is not a boolean", [targeting({ auth: "yes" } as never)], "entry 0 has target.auth that is not true or false"],
    ["tags that are not strings", [targeting({ tags: "admin" } as never)], "entry 0 has target.tags that is not an array of strings"],
  ])("refuses %s, naming the service and the entry", (_label, declared, message) => {
    expect(check(declared)).toThrow(message);
  });
});
