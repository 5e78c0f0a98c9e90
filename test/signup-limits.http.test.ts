// The limit on sign-ups over real HTTP, with its default (20 an hour per address): 429
// with Retry-After for the 21st, invalid requests not counted, taken emails counted,
// IPv6 by /64. Behind a trusted proxy here, so each request can say which address it is from.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { passwords } from "../passwords/passwords.ts";

vi.hoisted(() => {
  // Read once, when the runtime's config and limits/signups.ts load; the default is under test.
  process.env.TRUST_PROXY = "on";
  delete process.env.SIGNUP_LIMIT_PER_ADDRESS;
  delete process.env.SIGNUP_LIMIT_WINDOW_SECONDS;
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

let accounts = 0;
const account = (email = `signup-${++accounts}@example.com`) => ({ email, name: "N", age: 30, password: "a long password" });

function signUp(from: string, body: unknown = account()): Promise<Response> {
  return fetch(`${server.url}/users`, { method: "POST", headers: { "x-forwarded-for": from }, body: JSON.stringify(body) });
}

const taken = "taken@example.com";
beforeAll(async () => {
  expect((await signUp("192.0.2.1", account(taken))).status).toBe(200);
});

describe("sign-ups per address", () => {
  test("20 in an hour; the 21st is 429 resource_exhausted with Retry-After; invalid requests are not counted", async () => {
    // The window opens at the first sign-up counted; 20 hashings may take many seconds on a busy host.
    const windowOpened = Date.now();
    for (const invalid of [{ ...account(), age: "30" }, { ...account(), name: "  " }, { ...account(), password: "short" }]) {
      expect((await signUp("203.0.113.20", invalid)).status).toBe(400);
    }
    for (let i = 0; i < 20; i++) expect((await signUp("203.0.113.20")).status).toBe(200);
    const refused = await signUp("203.0.113.20");
    const elapsedSeconds = Math.ceil((Date.now() - windowOpened) / 1000);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { code: string; message: string; details: { retryAfterSeconds: number } };
    expect(body).toMatchObject({ code: "resource_exhausted", message: expect.stringMatching(/^too many accounts opened from this address; try again in \d+ seconds$/) });
    expect(body.details.retryAfterSeconds).toBeGreaterThanOrEqual(3600 - elapsedSeconds - 1);
    expect(body.details.retryAfterSeconds).toBeLessThanOrEqual(3600);
    expect(refused.headers.get("retry-after")).toBe(String(body.details.retryAfterSeconds));
    expect((await signUp("203.0.113.21")).status).toBe(200); // another address is another budget
  });

  test("a taken email counts, and is refused before any hash is made", async () => {
    const hash = vi.spyOn(passwords, "hash"); // watched, not replaced
    try {
      for (let i = 0; i < 20; i++) expect((await signUp("203.0.113.22", account(taken))).status).toBe(409);
      expect((await signUp("203.0.113.22")).status).toBe(429);
      expect(hash).not.toHaveBeenCalled();
    } finally {
      hash.mockRestore();
    }
  });

  test("concurrent sign-ups cannot slip past the limit", async () => {
    const statuses = (await Promise.all(Array.from({ length: 30 }, () => signUp("203.0.113.23", account(taken))))).map((r) => r.status);
    expect(statuses.filter((s) => s === 409)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  test("IPv6 addresses share the limit of their /64 network", async () => {
    for (let i = 0; i < 20; i++) expect((await signUp(`2001:db8:5:6::${i + 1}`, account(taken))).status).toBe(409);
    expect((await signUp("2001:db8:5:6:ffff::1")).status).toBe(429);
    expect((await signUp("2001:db8:5:7::1")).status).toBe(200);
  });
});
