// Limits on creating links over real HTTP: per address (IPv6 by /64), per signed-in
// user, 429 with Retry-After, and denied target hosts. Behind a trusted proxy here, so
// each request can say which client address it comes from.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";

vi.hoisted(() => {
  // Read once, when the runtime's config and limits/links.ts load.
  process.env.TRUST_PROXY = "on";
  process.env.SHORTEN_LIMIT_PER_ADDRESS = "3";
  process.env.SHORTEN_LIMIT_PER_USER = "5";
  process.env.SHORTEN_LIMIT_WINDOW_SECONDS = "600";
  process.env.DENIED_TARGET_HOSTS = "evil.example, Bücher.example";
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function post(path: string, body: unknown, from: string, token?: string): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "x-forwarded-for": from, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

const shorten = (from: string, url = "https://example.com/", token?: string) => post("/shorten", { url }, from, token);

async function statuses(responses: Promise<Response>[]): Promise<number[]> {
  return (await Promise.all(responses)).map((r) => r.status);
}

async function signUp(email: string): Promise<string> {
  expect((await post("/users", { email, name: "N", age: 30, password: "a long password" }, "192.0.2.200")).status).toBe(200);
  const res = await post("/auth/login", { email, password: "a long password" }, "192.0.2.200");
  return ((await res.json()) as { token: string }).token;
}

describe("per client address", () => {
  test("an anonymous address gets its limit, then 429 resource_exhausted with Retry-After; other addresses are unaffected", async () => {
    for (let i = 0; i < 3; i++) expect((await shorten("203.0.113.10")).status).toBe(200);
    const refused = await shorten("203.0.113.10");
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { code: string; message: string; details: { retryAfterSeconds: number } };
    expect(body).toMatchObject({ code: "resource_exhausted", message: expect.stringMatching(/^too many links created from this address; try again in \d+ seconds$/) });
    expect(body.details.retryAfterSeconds).toBeGreaterThan(590);
    expect(body.details.retryAfterSeconds).toBeLessThanOrEqual(600);
    expect(refused.headers.get("retry-after")).toBe(String(body.details.retryAfterSeconds));
    expect((await shorten("203.0.113.11")).status).toBe(200);
  });

  test("concurrent requests cannot slip past the limit", async () => {
    const results = await statuses(Array.from({ length: 10 }, () => shorten("203.0.113.12")));
    expect(results.filter((s) => s === 200)).toHaveLength(3);
    expect(results.filter((s) => s === 429)).toHaveLength(7);
  });

  test("IPv6 addresses share the limit of their /64 network", async () => {
    expect(await statuses([shorten("2001:db8:1:2::1"), shorten("2001:db8:1:2::2"), shorten("2001:db8:1:2:ffff::3")])).toEqual([200, 200, 200]);
    expect((await shorten("2001:db8:1:2:abcd::4")).status).toBe(429);
    expect((await shorten("2001:db8:1:3::1")).status).toBe(200); // the next /64 is another client
  });

  test("urlb's POST /url draws on the same budget", async () => {
    for (let i = 0; i < 3; i++) expect((await shorten("203.0.113.13")).status).toBe(200);
    const refused = await post("/url", { url: "https://example.com/b" }, "203.0.113.13");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});

describe("per signed-in user", () => {
  test("a user gets the user limit wherever it comes from", async () => {
    const token = await signUp("limited@example.com");
    const results = [];
    for (let i = 0; i < 6; i++) results.push((await shorten(`198.51.100.${i + 1}`, "https://example.com/u", token)).status);
    expect(results).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await shorten("198.51.100.99", "https://example.com/u", token);
    expect(await refused.json()).toMatchObject({ code: "resource_exhausted", message: expect.stringMatching(/by this account or address/) });
  });

  test("more accounts do not give one address more: signed-in requests also count on the address, with the user limit", async () => {
    const [first, second] = [await signUp("one@example.com"), await signUp("two@example.com")];
    const results = [];
    for (const token of [first, first, first, second, second, second]) results.push((await shorten("198.51.100.50", "https://example.com/a", token)).status);
    expect(results).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe("denied target hosts", () => {
  test.each(["https://evil.example/login", "https://WWW.Evil.Example./x", "https://bücher.example/", "http://xn--bcher-kva.example/"])(
    "%s is 400 invalid_argument",
    async (url) => {
      const res = await shorten("192.0.2.1", url);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        code: "invalid_argument",
        message: expect.stringMatching(/^url must not point at (evil\.example|xn--bcher-kva\.example) or its subdomains/),
        details: null,
      });
    },
  );

  test("names that only end alike are not denied; the service's own host still is", async () => {
    expect((await shorten("192.0.2.2", "https://notevil.example/")).status).toBe(200);
    expect((await shorten("192.0.2.2", "https://sho.rt/abcdef")).status).toBe(400);
  });

  test("a refused URL costs no budget", async () => {
    for (let i = 0; i < 5; i++) expect((await shorten("192.0.2.3", "https://evil.example/")).status).toBe(400);
    expect(await statuses([shorten("192.0.2.3"), shorten("192.0.2.3"), shorten("192.0.2.3")])).toEqual([200, 200, 200]);
  });

  test("urlb refuses them too, when what it is given parses as a URL", async () => {
    const res = await post("/url", { url: "https://sub.evil.example/" }, "192.0.2.4");
    expect(res.status).toBe(400);
    expect((await post("/url", { url: "not a url at all" }, "192.0.2.4")).status).toBe(200); // Variant B stores any string
  });
});
