// The per-address login limit counts the address the runtime reports, not one a
// client makes up: with TRUST_PROXY off, X-Forwarded-For is the connection's peer.
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

test("twenty attempts from one address, whatever X-Forwarded-For says, then 429", async () => {
  const statuses: number[] = [];
  for (let i = 1; i <= 21; i++) {
    const res = await fetch(`${server.url}/auth/login`, {
      method: "POST",
      headers: { "x-forwarded-for": `203.0.113.${i}` }, // a different made-up address each time
      body: JSON.stringify({ email: `someone${i}@example.com`, password: "whatever it is" }),
    });
    statuses.push(res.status);
  }
  expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
  expect(statuses[20]).toBe(429);
});
