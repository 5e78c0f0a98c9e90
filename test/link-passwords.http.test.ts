// Password links over real HTTP: the header for API clients, the form for browsers
// (POST /:code), HEAD, and the limit on guessing per client address and code.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { db } from "../url/db.ts";
import { browserAccept, expectPageHeaders, LinkClient, storedClicks } from "./support/link-client.ts";

vi.hoisted(() => {
  process.env.TRUST_PROXY = "on"; // read once, when the configs load: each test names its address
});

let server: TestServer;
const client = new LinkClient(() => server.url);
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const passwordLink = (url: string, password = "open sesame", extra: Record<string, unknown> = {}) =>
  client.shorten({ url, password, ...extra }, { from: client.nextAddress() });

const withPassword = (code: string, password: string, from: string) =>
  client.request("GET", `/${code}`, { from, headers: { "x-link-password": password } });

const postForm = (code: string, body: string, from: string, accept = browserAccept) =>
  client.request("POST", `/${code}`, { from, headers: { accept, "content-type": "application/x-www-form-urlencoded" } }, body);

describe("an API client", () => {
  test("no header: 401; wrong: 401; right: 200 with the url, the click counted", async () => {
    const code = await passwordLink("https://example.com/secret");
    const from = client.nextAddress();
    const none = await client.request("GET", `/${code}`, { from });
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({
      code: "unauthenticated",
      message: "this link needs a password: send it in the X-Link-Password header",
      details: null,
    });
    const wrong = await withPassword(code, "guess", from);
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ code: "unauthenticated", message: "wrong password", details: null });
    const right = await withPassword(code, "open sesame", from);
    expect(right.status).toBe(200);
    expect(await right.json()).toEqual({ url: "https://example.com/secret" });
    expect(await storedClicks(code)).toBe(1);
  });

  test("the password is stored as a scrypt hash, never in clear", async () => {
    const code = await passwordLink("https://example.com/hashed");
    const row = await db.queryRow<{ password_hash: string }>`SELECT password_hash FROM urls WHERE code = ${code}`;
    expect(row!.password_hash).toMatch(/^scrypt\$/);
    expect(row!.password_hash).not.toContain("open sesame");
  });

  test("a password in UTF-8 in the header is read as such", async () => {
    const code = await passwordLink("https://example.com/utf8", "päss wörd");
    const utf8AsLatin1 = Buffer.from("päss wörd", "utf8").toString("latin1");
    expect((await withPassword(code, utf8AsLatin1, client.nextAddress())).status).toBe(200);
  });

  test("HEAD is 401 and counts nothing, even with the right password", async () => {
    const code = await passwordLink("https://example.com/head");
    const res = await client.request("HEAD", `/${code}`, { headers: { "x-link-password": "open sesame" } });
    expect(res.status).toBe(401);
    expect(await storedClicks(code)).toBe(0);
  });

  test("with a click budget too, the right password spends it", async () => {
    const code = await passwordLink("https://example.com/once", "pw", { maxClicks: 1 });
    const from = client.nextAddress();
    expect((await withPassword(code, "pw", from)).status).toBe(200);
    expect((await withPassword(code, "pw", from)).status).toBe(404);
  });
});

describe("a browser", () => {
  test("gets a 401 page with the form, which posts to the short link itself", async () => {
    const code = await passwordLink("https://example.com/form");
    const res = await client.request("GET", `/${code}`, { headers: { accept: browserAccept } });
    expect(res.status).toBe(401);
    expectPageHeaders(res);
    const html = await res.text();
    expect(html).toMatch(/<form method="post">/);
    expect(html).toMatch(/name="password"/);
    expect(html).not.toMatch(/<script/i);
  });

  test("the right password: 303 to the target, the click counted", async () => {
    const code = await passwordLink("https://example.com/landing?x=1", "correct horse");
    const res = await postForm(code, "password=correct+horse", client.nextAddress());
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("https://example.com/landing?x=1");
    expect(await storedClicks(code)).toBe(1);
  });

  test("a wrong password: 401 and the form again, saying so; nothing counted", async () => {
    const code = await passwordLink("https://example.com/wrong");
    const res = await postForm(code, "password=nope", client.nextAddress());
    expect(res.status).toBe(401);
    expectPageHeaders(res);
    expect(await res.text()).toMatch(/Wrong password[\s\S]*<form/);
    expect(await storedClicks(code)).toBe(0);
  });

  test("an API client posting the form gets JSON", async () => {
    const code = await passwordLink("https://example.com/json-form");
    const res = await postForm(code, "password=nope", client.nextAddress(), "application/json");
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "unauthenticated", message: "wrong password" });
  });

  test("a form too large is 413 unread; another type is 400; an unknown code 404", async () => {
    const code = await passwordLink("https://example.com/sizes");
    expect((await postForm(code, `password=${"x".repeat(5000)}`, client.nextAddress())).status).toBe(413);
    const json = await client.request("POST", `/${code}`, { headers: { "content-type": "application/json" } }, '{"password":"open sesame"}');
    expect(json.status).toBe(400);
    expect((await postForm("nosuchcode", "password=x", client.nextAddress(), "application/json")).status).toBe(404);
    const unknownPath = await client.request("POST", "/no.such.path", { headers: { "content-type": "application/json" } }, "{}");
    expect(unknownPath.status).toBe(404);
  });

  test("a link with no password (any more) just redirects, the click counted", async () => {
    const code = await client.shorten({ url: "https://example.com/open" }, { from: client.nextAddress() });
    const res = await postForm(code, "password=whatever", client.nextAddress());
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("https://example.com/open");
    expect(await storedClicks(code)).toBe(1);
  });
});

describe("guessing", () => {
  test("4 wrong passwords from one address cost nothing; the next attempt waits: 429 with Retry-After; other addresses are unaffected", async () => {
    const code = await passwordLink("https://example.com/guarded");
    const guesser = client.nextAddress();
    for (let i = 0; i < 4; i++) expect((await withPassword(code, `guess ${i}`, guesser)).status).toBe(401);
    const refused = await withPassword(code, "open sesame", guesser); // even the right one, while waiting
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({ code: "resource_exhausted", message: expect.stringMatching(/^too many wrong passwords for this link/) });
    const page = await postForm(code, "password=x", guesser);
    expect(page.status).toBe(429);
    expect(page.headers.get("retry-after")).toMatch(/^\d+$/);
    expectPageHeaders(page);
    expect((await withPassword(code, "open sesame", client.nextAddress())).status).toBe(200);
  });

  test("the right password clears the address's count", async () => {
    const code = await passwordLink("https://example.com/cleared");
    const from = client.nextAddress();
    for (let i = 0; i < 3; i++) expect((await withPassword(code, "wrong", from)).status).toBe(401);
    expect((await withPassword(code, "open sesame", from)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await withPassword(code, "wrong", from)).status).toBe(401);
  });
});

describe("many at once", () => {
  const tally = (answers: Response[]) => {
    const statuses = answers.map((res) => res.status);
    return Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((x) => x === s).length]));
  };

  test("100 requests in parallel with the right password from one address: all 200, every click counted", async () => {
    const code = await passwordLink("https://example.com/popular", "shared secret");
    const from = client.nextAddress();
    const answers = await Promise.all(Array.from({ length: 100 }, () => withPassword(code, "shared secret", from)));
    expect(tally(answers)).toEqual({ 200: 100 });
    expect(await storedClicks(code)).toBe(100);
  });

  test("20 different wrong passwords at once from one address: 4 are checked (401), the rest refused (429) untried", async () => {
    const code = await passwordLink("https://example.com/burst");
    const guesser = client.nextAddress();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => withPassword(code, `guess ${i}`, guesser)));
    expect(tally(answers)).toEqual({ 401: 4, 429: 16 });
    // The 4 checked were wrong: the address now waits, even with the right password.
    expect((await withPassword(code, "open sesame", guesser)).status).toBe(429);
  });

  test("a right password sent with wrong ones at once is answered 200 and clears the address's count", async () => {
    const code = await passwordLink("https://example.com/mixed");
    const from = client.nextAddress();
    const answers = await Promise.all(["typo 1", "typo 2", "open sesame", "typo 3"].map((p) => withPassword(code, p, from)));
    expect(answers.map((res) => res.status)).toEqual([401, 401, 200, 401]);
  });
});
