// Login limits with TRUST_PROXY off: every request counts as coming from the connection's
// peer, whatever X-Forwarded-For says, as when the app sits behind a proxy nobody declared.
// Such a site's users all share one address: their logins must not lock each other out.
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function login(email: string, password: string, forwardedFor: string): Promise<Response> {
  return fetch(`${server.url}/auth/login`, {
    method: "POST",
    headers: { "x-forwarded-for": forwardedFor },
    body: JSON.stringify({ email, password }),
  });
}

test("successful logins of many users from one address are never limited", async () => {
  const created = await fetch(`${server.url}/users`, {
    method: "POST",
    body: JSON.stringify({ email: "busy@example.com", name: "B", age: 30, password: "a long password" }),
  });
  expect(created.status).toBe(200);
  const statuses: number[] = [];
  for (let i = 1; i <= 25; i++) statuses.push((await login("busy@example.com", "a long password", `203.0.113.${i}`)).status);
  expect(statuses).toEqual(Array(25).fill(200)); // the old limit counted every attempt: the 21st was 429
});

test("failures for many accounts from one address are limited loosely (100 an hour), not after 20", async () => {
  const statuses: number[] = [];
  for (let i = 1; i <= 25; i++) statuses.push((await login(`someone${i}@example.com`, "whatever it is", `198.51.100.${i}`)).status);
  expect(statuses).toEqual(Array(25).fill(401));
});
