// The users service's account endpoints over HTTP with real bearer tokens: what a client sees.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiCaller, signUpAndLogIn } from "./support/api-client.ts";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const call = apiCaller(() => server.url);

let accounts = 0;
async function signedInUser(): Promise<{ id: string; email: string; token: string }> {
  const email = `http${++accounts}@example.com`;
  const { userID, token } = await signUpAndLogIn(call, email);
  return { id: userID, email, token };
}

describe("account endpoints over HTTP", () => {
  test("GET, PUT and DELETE of one's own account, after which its token is refused", async () => {
    const ada = await signedInUser();
    const got = await call("GET", `/users/${ada.id}`, { token: ada.token });
    expect(got).toEqual({ status: 200, body: { id: ada.id, email: ada.email, name: "Ada", age: 36, createdAt: expect.any(String) } });

    const put = await call("PUT", `/users/${ada.id}`, { token: ada.token, body: { email: ada.email, name: "Ada L.", age: 37 } });
    expect(put).toMatchObject({ status: 200, body: { id: ada.id, name: "Ada L.", age: 37 } });
    expect(put.body).not.toHaveProperty("passwordHash");

    const currentPassword = { "x-current-password": "correct horse battery" };
    expect((await call("DELETE", `/users/${ada.id}`, { token: ada.token, headers: currentPassword })).status).toBe(200);
    expect(await call("GET", `/users/${ada.id}`, { token: ada.token })).toMatchObject({ status: 401, body: { code: "unauthenticated" } });
  });

  test("GET /users lists a user's own account and no other; without a token it is 401", async () => {
    const [ada, bob] = [await signedInUser(), await signedInUser()];
    for (const user of [ada, bob]) {
      expect(await call("GET", "/users", { token: user.token })).toEqual({
        status: 200,
        body: { users: [{ id: user.id, name: "Ada", createdAt: expect.any(String) }] },
      });
    }
    expect((await call("GET", "/users")).status).toBe(401);
  });

  test("another user's account is 403, an id of no account 404, no token 401", async () => {
    const [ada, bob] = [await signedInUser(), await signedInUser()];
    for (const method of ["GET", "DELETE"]) {
      expect(await call(method, `/users/${bob.id}`, { token: ada.token })).toMatchObject({ status: 403, body: { code: "permission_denied" } });
      expect(await call(method, "/users/not-a-uuid", { token: ada.token })).toMatchObject({ status: 404, body: { code: "not_found" } });
      expect(await call(method, `/users/${ada.id}`)).toMatchObject({ status: 401, body: { code: "unauthenticated" } });
    }
    const body = { email: "x@example.com", name: "X", age: 1 };
    expect(await call("PUT", `/users/${bob.id}`, { token: ada.token, body })).toMatchObject({ status: 403 });
    expect(await call("PUT", `/users/${ada.id}`, { body })).toMatchObject({ status: 401 });
  });

  test("a string age in a PUT is 400 before the handler runs", async () => {
    const ada = await signedInUser();
    const res = await call("PUT", `/users/${ada.id}`, { token: ada.token, body: { email: ada.email, name: "Ada", age: "36" } });
    expect(res).toMatchObject({ status: 400, body: { code: "invalid_argument" } });
  });

  test("GET /users pages with a token, refuses a bad limit, and needs a token", async () => {
    const ada = await signedInUser();
    const page = await call("GET", "/users?limit=1", { token: ada.token });
    expect(page.status).toBe(200);
    expect((page.body.users as unknown[]).length).toBe(1);
    expect(Object.keys((page.body.users as Record<string, unknown>[])[0]!).sort()).toEqual(["createdAt", "id", "name"]);
    for (const limit of ["0", "101", "ten"]) {
      expect(await call("GET", `/users?limit=${limit}`, { token: ada.token })).toMatchObject({ status: 400, body: { code: "invalid_argument" } });
    }
    expect(await call("GET", "/users")).toMatchObject({ status: 401 });
  });
});
