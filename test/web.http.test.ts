// The web front end's security headers over HTTP, on the page, its assets and the
// not-found page, and a CSP that allows every inline script and style those pages have.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { pageStyle } from "../url/answer-pages/pages";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function expectSecurityHeaders(res: Response): void {
  const csp = res.headers.get("content-security-policy") ?? "";
  const directives = new Map(csp.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
  expect(directives.get("default-src")).toEqual(["'none'"]);
  expect(directives.get("script-src")).toEqual(["'self'"]);
  expect(directives.get("connect-src")).toEqual(["'self'"]);
  expect(directives.get("frame-ancestors")).toEqual(["'none'"]);
  expect(directives.get("style-src")?.[0]).toBe("'self'");
  expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
}

/** Every inline <script> and <style> of `html` must be allowed by the CSP's hashes. */
function expectInlineCodeAllowed(html: string, csp: string): void {
  for (const [, tag, body] of html.matchAll(/<(script|style)\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/\1>/g)) {
    const hash = `'sha256-${createHash("sha256").update(body!).digest("base64")}'`;
    const directive = csp.split(";").find((d) => d.trim().startsWith(`${tag}-src `)) ?? "";
    expect(directive, `an inline <${tag}> without its hash in the CSP`).toContain(hash);
  }
}

describe("the web front end's headers", () => {
  // "/" is the built page, or not-found.html while frontend/dist is empty: both are pages.
  test.each(["/", "/no/such/page", "/_app/.env"])("%s has a strict CSP, frame protection, no referrer and nosniff", async (path) => {
    const res = await fetch(`${server.url}${path}`);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expectSecurityHeaders(res);
    expectInlineCodeAllowed(await res.text(), res.headers.get("content-security-policy")!);
  });

  test("the not-found page's inline style is allowed by its hash", async () => {
    const res = await fetch(`${server.url}/no/such/page`);
    const html = await res.text();
    expect(res.status).toBe(404);
    expect(html).toContain("<style>");
    expectInlineCodeAllowed(html, res.headers.get("content-security-policy")!);
  });

  test("the not-found page looks like a short link's not-found page: the same style, to the character", async () => {
    const html = await (await fetch(`${server.url}/no/such/page`)).text();
    expect([...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1])).toEqual([pageStyle]);
    expect(html).toContain('<a href="/">');
  });

  test("a short link is answered by the API, not the front end: no CSP of the page on it", async () => {
    const res = await fetch(`${server.url}/abcdef`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-security-policy")).toBeNull();
  });
});
