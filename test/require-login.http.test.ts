// REQUIRE_LOGIN_TO_SHORTEN=on: anonymous shortens are refused, signed-in ones work.
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";

vi.hoisted(() => {
  process.env.REQUIRE_LOGIN_TO_SHORTEN = "on"; // read once, when url/config/url-config.ts loads
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function post(path: string, body: unknown, token?: string): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: JSON.stringify(body),
  });
}

test("an anonymous shorten gets 401; with a valid token it is stored", async () => {
  const anonymous = await post("/shorten", { url: "https://anon.example" });
  expect(anonymous.status).toBe(401);
  expect(await anonymous.json()).toEqual({ code: "unauthenticated", message: "sign in to shorten URLs", details: null });
  expect((await post("/shorten", { url: "https://anon.example" }, "forged.token.here")).status).toBe(401);

  await post("/users", { email: "req@example.com", name: "R", age: 40, password: "a long password" });
  const { token } = (await (await post("/auth/login", { email: "req@example.com", password: "a long password" })).json()) as { token: string };
  const signedIn = await post("/shorten", { url: "https://signed-in.example" }, token);
  expect(signedIn.status).toBe(200);
  expect(await signedIn.json()).toMatchObject({ code: expect.stringMatching(/^[a-z0-9]{6}$/) });
});
