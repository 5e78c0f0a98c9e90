// Decimal fields and Cookie<...> parameters over real HTTP, with the metadata the parser
// writes for the fixture app testdata/decimal-cookie and handlers written here, as Encore
// answers them: a decimal is a string on the wire and a Decimal in the handler; a request
// cookie reaches the handler as { name, value }, a response cookie is a Set-Cookie header.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Decimal } from "../../../encore.dev/types/mod.ts";
import { config } from "../../config/mod.ts";
import type { AppMeta } from "../../meta/types.ts";
import { parseApp } from "../../parser/mod.ts";
import type { AuthHandlerEntry } from "../../registry/endpoints.ts";
import { endpointOf, fixture } from "../../../test/parser-fixtures.ts";
import { buildHttpServer } from "../http-server.ts";
import { compileCallValidator } from "./request.ts";

let meta: AppMeta;
let server: Awaited<ReturnType<typeof buildHttpServer>>;
let url: string;
/** What the handlers were given, by endpoint. */
const seen: Record<string, Record<string, unknown>> = {};
/** The login handler's cookie fields; set by each test. */
let sessionCookie: unknown;

const handlers: Record<string, (params: Record<string, unknown>) => Promise<unknown>> = {
  total: async (q) => {
    seen["total"] = q;
    const line = (q["amount"] as Decimal).mul(q["quantity"] as number);
    const discount = (q["discount"] as Decimal | null | undefined) ?? null;
    return { total: line.sub(discount ?? 0), lines: [line, new Decimal(1).div(3)], saved: discount };
  },
  convert: async (c) => {
    seen["convert"] = c;
    return { result: (c["amount"] as Decimal).mul(c["rate"] as Decimal).add((c["fee"] as Decimal | undefined) ?? 0) };
  },
  prefs: async (p) => {
    seen["prefs"] = p;
    return { theme: (p["theme"] as { value: string }).value, visits: (p["visits"] as { value: number } | undefined)?.value ?? 0 };
  },
  login: async (p) => ({ user: p["user"], session: sessionCookie, theme: { value: "dark", sameSite: "None" } }),
  me: async () => ({ ok: true }),
};

beforeAll(async () => {
  meta = parseApp(fixture("decimal-cookie"));
  const endpoints = ["total", "convert", "prefs", "login"].map((name) => ({ meta: endpointOf(meta, "shop", name), handler: handlers[name] }));
  endpoints.push({ meta: endpointOf(meta, "gate", "me"), handler: handlers["me"] });
  const auth: AuthHandlerEntry = {
    meta: meta.auth!,
    handler: async (params) => {
      seen["auth"] = params;
      const session = params["session"] as { value: string };
      return session.value === "s-ada" ? { userID: "ada" } : null;
    },
  };
  const cfg = { appRoot: process.cwd(), exposeInternalErrors: false, pubsubAdminToken: null, objects: config().objects, trustProxy: false };
  server = await buildHttpServer(endpoints, cfg, { auth });
  await server.listen({ host: "127.0.0.1", port: 0 });
  const address = server.server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  await server.close();
});

const post = (path: string, body: unknown) => fetch(url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("Decimal fields", () => {
  test("arrive in the handler as Decimal instances and leave as strings", async () => {
    const res = await post("/total", { amount: "19.99", quantity: 3, discount: "0.97" });
    expect(res.status).toBe(200);
    expect(seen["total"]!["amount"]).toBeInstanceOf(Decimal);
    expect(await res.json()).toEqual({ total: "59", lines: ["59.97", "0.3333333333"], saved: "0.97" });
  });

  test("an optional one may be null or left out", async () => {
    expect(await (await post("/total", { amount: "2.5", quantity: 2, discount: null })).json()).toEqual({ total: "5", lines: ["5", "0.3333333333"], saved: null });
    expect(seen["total"]!["discount"]).toBeNull();
  });

  test("a text that is no decimal, or a JSON number, is refused with invalid_argument", async () => {
    const bad = await post("/total", { amount: "12,50", quantity: 1 });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "invalid_argument", message: "unable to decode request body: amount: invalid decimal: Failed to parse decimal from string: 12,50" });
    const number = await post("/total", { amount: 12.5, quantity: 1 });
    expect(number.status).toBe(400);
    expect(await number.json()).toMatchObject({ code: "invalid_argument", message: "unable to decode request body: amount: invalid type: floating point `12.5`, expected a decimal" });
  });

  test("are read from the query string and headers", async () => {
    const res = await fetch(`${url}/convert?amount=100&r=1.0825`, { headers: { "x-fee": "0.5" } });
    expect(await res.json()).toEqual({ result: "108.75" });
    expect(seen["convert"]!["rate"]).toBeInstanceOf(Decimal);
    const bad = await fetch(`${url}/convert?amount=abc&r=1`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "invalid_argument", message: "unable to decode query string: amount: invalid decimal: Failed to parse decimal from string: abc" });
  });
});

describe("Decimal fields of a call through ~encore/clients", () => {
  test("cross as their text, as over the wire, and arrive as new Decimal instances; the caller's object is left as it was", () => {
    const validate = compileCallValidator(endpointOf(meta, "shop", "total").request!);
    const amount = new Decimal("1.50");
    const params = { amount, quantity: 2, discount: null };
    const received = validate(params) as Record<string, unknown>;
    expect(received["amount"]).toBeInstanceOf(Decimal);
    expect(received["amount"]).not.toBe(amount);
    expect(String(received["amount"])).toBe("1.5");
    expect(params.amount).toBe(amount);
  });

  test("a text that is no decimal is refused with invalid_argument", () => {
    const validate = compileCallValidator(endpointOf(meta, "shop", "total").request!);
    expect(() => validate({ amount: "1.2.3", quantity: 1 })).toThrow(expect.objectContaining({ code: "invalid_argument", message: "amount: invalid decimal: Failed to parse decimal from string: 1.2.3" }));
  });
});

describe("Cookie<...> request fields", () => {
  test("are read from the Cookie header, typed, and given to the handler as { name, value }", async () => {
    const res = await fetch(`${url}/prefs?q=x`, { headers: { cookie: "theme=dark; visits=7; since=2024-05-01T10:00:00Z; other=1" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ theme: "dark", visits: 7 });
    expect(seen["prefs"]).toEqual({ q: "x", theme: { name: "theme", value: "dark" }, visits: { name: "visits", value: 7 }, since: { name: "since", value: new Date("2024-05-01T10:00:00Z") } });
  });

  test("a value is taken as sent, without percent-decoding", async () => {
    await fetch(`${url}/prefs`, { headers: { cookie: "theme=a%20b" } });
    expect(seen["prefs"]!["theme"]).toEqual({ name: "theme", value: "a%20b" });
  });

  test("a missing required cookie and a value of the wrong type are refused in Encore's words", async () => {
    const missing = await fetch(`${url}/prefs`, { headers: { cookie: "visits=1" } });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: "invalid_argument", message: "missing required cookie: theme" });
    const wrong = await fetch(`${url}/prefs`, { headers: { cookie: "theme=dark; visits=many" } });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ code: "invalid_argument", message: "invalid number value: many" });
  });
});

describe("Cookie<...> response fields", () => {
  test("are sent as Set-Cookie headers with their options, and left out of the body", async () => {
    const expires = new Date("2030-01-02T03:04:05Z");
    sessionCookie = { value: "s-ada", httpOnly: true, path: "/", maxAge: 3600, expires, sameSite: "Lax", secure: true };
    const res = await post("/login", { user: "ada" });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([
      "sid=s-ada; HttpOnly; SameSite=Lax; Secure; Path=/; Max-Age=3600; Expires=Wed, 02 Jan 2030 03:04:05 GMT",
      "theme=dark; SameSite=None; Secure",
    ]);
    expect(await res.json()).toEqual({ user: "ada" });
  });

  test("an option of the wrong type is the app's bug: an internal error", async () => {
    sessionCookie = { value: "s-ada", sameSite: "sometimes" };
    const res = await post("/login", { user: "ada" });
    expect(res.status).toBe(500);
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});

describe("Cookie<...> auth parameters", () => {
  test("a request carrying the cookie runs the auth handler with it", async () => {
    const res = await fetch(`${url}/me`, { headers: { cookie: "sid=s-ada" } });
    expect(res.status).toBe(200);
    expect(seen["auth"]).toEqual({ session: { name: "sid", value: "s-ada" } });
  });

  test("without the cookie, or with it empty, the request is not authenticated", async () => {
    const requests: Record<string, string>[] = [{}, { cookie: "sid=" }, { cookie: "other=s-ada" }];
    for (const headers of requests) {
      const res = await fetch(`${url}/me`, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: "unauthenticated" });
    }
  });
});
