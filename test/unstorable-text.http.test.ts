// A request field holding U+0000 (valid JSON: "\u0000") that an endpoint stores as it is:
// PostgreSQL refuses it, and the client is told its input is bad (400), not that the
// service failed (500). Found by the fuzz suite (test/faults/fuzz.faults.test.ts).
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const badText = { code: "invalid_argument", message: "a text value holds a character the database cannot store (such as U+0000)", details: null };

test.each([
  ["POST /url (the runtime's sqldb)", "/url", { url: "https://example.com/a\u0000b" }],
  ["POST /users (drizzle)", "/users", { email: "nul@example.com", name: "N\u0000L", age: 30, password: "long enough pw" }],
  ["POST /auth/login (a call between services)", "/auth/login", { email: "a\u0000@example.com", password: "long enough pw" }],
])("%s with U+0000 in a text field is 400 invalid_argument", async (_, path, body) => {
  const res = await fetch(`${server.url}${path}`, { method: "POST", body: JSON.stringify(body) });
  expect({ status: res.status, body: await res.json() }).toEqual({ status: 400, body: badText });
});
