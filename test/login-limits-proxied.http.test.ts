// Login limits behind a trusted proxy (TRUST_PROXY=on), so each request can say which
// client address it comes from: a guesser is slowed down, the account's owner is not
// locked out, and IPv6 clients are counted by /64.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";

vi.hoisted(() => {
  process.env.TRUST_PROXY = "on"; // read once, when the runtime's config loads
  process.env.LOGIN_FAILURES_PER_ADDRESS = "10";
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const password = "the owner's long password";

function login(email: string, pw: string, from: string): Promise<Response> {
  return fetch(`${server.url}/auth/login`, { method: "POST", headers: { "x-forwarded-for": from }, body: JSON.stringify({ email, password: pw }) });
}

async function statusesOf(attempts: (() => Promise<Response>)[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const attempt of attempts) statuses.push((await attempt()).status);
  return statuses;
}

async function owner(email: string): Promise<void> {
  const res = await fetch(`${server.url}/users`, { method: "POST", body: JSON.stringify({ email, name: "O", age: 30, password }) });
  expect(res.status).toBe(200);
}

describe("an (address, email) pair", () => {
  test("gets 4 free failures, then waits longer after each one, and a success clears it", async () => {
    await owner("pair@example.com");
    const from = "203.0.113.20";
    const wrong = () => login("pair@example.com", "wrong password", from);
    expect(await statusesOf([wrong, wrong, wrong, wrong])).toEqual([401, 401, 401, 401]);
    const waiting = await wrong();
    expect(waiting.status).toBe(429);
    expect(waiting.headers.get("retry-after")).toBe("1");
    expect(await waiting.json()).toMatchObject({ code: "resource_exhausted", details: { retryAfterSeconds: 1 } });

    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await wrong()).status).toBe(401); // the 5th failure: the next wait is 2 s
    const longer = await wrong();
    expect(longer.status).toBe(429);
    expect(longer.headers.get("retry-after")).toBe("2");

    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await login("pair@example.com", password, from)).status).toBe(200);
    expect(await statusesOf([wrong, wrong, wrong, wrong])).toEqual([401, 401, 401, 401]); // free again
  });
});

describe("the account's owner", () => {
  test("is not locked out by someone else's bad attempts on the account", async () => {
    await owner("target@example.com");
    const attacker = () => login("target@example.com", "guess", "203.0.113.66");
    expect(await statusesOf([attacker, attacker, attacker, attacker, attacker])).toEqual([401, 401, 401, 401, 429]);
    // The old limit locked the email for 15 minutes after 5 failures, wherever they came from.
    expect((await login("target@example.com", password, "198.51.100.7")).status).toBe(200);
  });

  test("gets in from an address it signed in from even when many addresses spent the account's budget", async () => {
    await owner("famous@example.com");
    expect((await login("famous@example.com", password, "198.51.100.8")).status).toBe(200);
    // 10 failures a minute per email from addresses it does not know, here from 10 of them.
    const attackers = Array.from({ length: 10 }, (_, i) => () => login("famous@example.com", "guess", `192.0.2.${i + 1}`));
    expect(await statusesOf(attackers)).toEqual(Array(10).fill(401));
    const next = await login("famous@example.com", "guess", "192.0.2.99");
    expect(next.status).toBe(429);
    expect(Number(next.headers.get("retry-after"))).toBeLessThanOrEqual(60); // a slow-down, never a long lock-out
    expect((await login("famous@example.com", password, "198.51.100.8")).status).toBe(200);
  });
});

describe("an address", () => {
  test("IPv6 addresses are counted by their /64: 10 failures from one /64, then 429", async () => {
    const from = (i: number) => `2001:db8:5:6:${i.toString(16)}::1`;
    const attempts = Array.from({ length: 10 }, (_, i) => () => login(`v6-${i}@example.com`, "guess", from(i + 1)));
    expect(await statusesOf(attempts)).toEqual(Array(10).fill(401));
    const refused = await login("v6-next@example.com", "guess", from(99));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000); // the hour's window
    expect((await login("v6-next@example.com", "guess", "2001:db8:5:7::1")).status).toBe(401); // another /64
  });
});
