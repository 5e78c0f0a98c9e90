// Targets a short link must not have, over real HTTP, wherever a target is given:
// POST /shorten, POST /links/bulk and PATCH /links/:code.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiCaller, signUpAndLogIn } from "./support/api-client.ts";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { db } from "../url/db.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const call = apiCaller(() => server.url);

let accounts = 0;
async function signedIn(): Promise<string> {
  return (await signUpAndLogIn(call, `targets${++accounts}@example.com`)).token;
}

const withUserInfo = [
  "https://user:pass@example.com/",
  "https://user@example.com/page",
  "http://:secret@example.com/",
  "https://bank.example@evil.example/login",
];

const refusal = {
  code: "invalid_argument",
  message: "url must not hold a user name or password (user:password@host): whoever follows the short link would get them",
  details: null,
};

describe("a target with a user name or password", () => {
  test.each(withUserInfo)("POST /shorten of %s is 400 invalid_argument, nothing stored", async (url) => {
    const before = (await db.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM urls`)!.n;
    expect(await call("POST", "/shorten", { body: { url } })).toEqual({ status: 400, body: refusal });
    expect((await db.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM urls`)!.n).toBe(before);
  });

  test("POST /links/bulk refuses such an item with the same error and stores the others", async () => {
    const token = await signedIn();
    const res = await call("POST", "/links/bulk", { token, body: { items: [{ url: "https://example.com/fine" }, { url: withUserInfo[0] }] } });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([{ code: expect.any(String), shortUrl: expect.any(String) }, { error: { code: refusal.code, message: refusal.message } }]);
  });

  test("PATCH /links/:code to such a target is 400 and the link keeps its target", async () => {
    const token = await signedIn();
    const made = await call("POST", "/shorten", { token, body: { url: "https://example.com/kept" } });
    const code = made.body.code as string;
    for (const url of withUserInfo) {
      expect(await call("PATCH", `/links/${code}`, { token, body: { url } })).toEqual({ status: 400, body: refusal });
    }
    expect((await db.queryRow<{ original_url: string }>`SELECT original_url FROM urls WHERE code = ${code}`)!.original_url).toBe("https://example.com/kept");
  });

  test("an @ in the path or query is no user name: such a target is stored", async () => {
    const res = await call("POST", "/shorten", { body: { url: "https://example.com/@someone?by=a@b.example" } });
    expect(res.status).toBe(200);
    expect(await call("GET", `/${res.body.code as string}`)).toEqual({ status: 200, body: { url: "https://example.com/@someone?by=a@b.example" } });
  });
});
