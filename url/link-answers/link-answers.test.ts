import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { clientAddressKey } from "../../limits/client-address";
import { readForm } from "./form";
import { escapeHtml, pageHeaders, passwordPage, waitPage } from "../answer-pages/pages";
import { notFound, unavailableAnswer, unavailablePage } from "../answer-pages/unavailable";

describe("pages", () => {
  test("the one inline style of every page is allowed by its hash, and nothing runs", () => {
    for (const html of [passwordPage(null), passwordPage("Wrong"), notFound.page, unavailableAnswer("expired").page, waitPage("guesses", 30)]) {
      const styles = [...html.matchAll(/<style>([^<]*)<\/style>/g)].map((m) => m[1]!);
      expect(styles).toHaveLength(1);
      const hash = createHash("sha256").update(styles[0]!).digest("base64");
      expect(pageHeaders["content-security-policy"]).toContain(`style-src 'sha256-${hash}'`);
      expect(html).not.toMatch(/<script|\son[a-z]+=/i);
    }
  });

  test("every page links home: PUBLIC_BASE_URL, or the home it is given", () => {
    for (const html of [passwordPage(null), notFound.page, unavailableAnswer("deleted").page, waitPage("busy", undefined)]) {
      expect(html).toContain('<p class="home"><a href="https://sho.rt/">Go to sho.rt</a></p>');
    }
    const home = { url: "https://go.example.com/", label: "Go to <Example>" };
    expect(unavailablePage(notFound, home)).toContain('<a href="https://go.example.com/">Go to &lt;Example&gt;</a>');
    expect(passwordPage(null, home)).toContain('<a href="https://go.example.com/">');
  });

  test("a prepared page is built once", () => {
    expect(unavailableAnswer("expired").page).toBe(unavailableAnswer("expired").page);
    expect(notFound.page).toContain("<h1>Link not found</h1>");
  });

  test("the wait page says when to try again", () => {
    expect(waitPage("guesses", 30)).toContain("Try again in 30 seconds.");
    expect(waitPage("guesses", 600)).toContain("Try again in 10 minutes.");
    expect(waitPage("guesses", 1)).toContain("Try again in 1 second.");
    expect(waitPage("guesses", undefined)).toContain("Try again in a little while.");
  });

  test("text is escaped", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    expect(passwordPage("<b>")).toContain("&lt;b&gt;");
  });

  test("a prepared answer's sizes are its bytes", () => {
    const answer = unavailableAnswer("disabled", "account");
    expect(answer.message).toBe("link disabled");
    expect(answer.bodyBytes).toBe(Buffer.byteLength(answer.body));
    expect(answer.pageBytes).toBe(Buffer.byteLength(answer.page));
  });
});

function request(headers: Record<string, string>, remoteAddress = "::ffff:192.0.2.9", body: string[] = []): IncomingMessage {
  return Object.assign(Readable.from(body.map((b) => Buffer.from(b))), { headers, socket: { remoteAddress } }) as unknown as IncomingMessage;
}

describe("the client's address of a raw request", () => {
  test("the peer's, whatever the client sent, unless TRUST_PROXY", () => {
    expect(clientAddressKey(request({ "x-forwarded-for": "203.0.113.1" }), false)).toBe("192.0.2.9");
  });

  test("behind a trusted proxy, the last entry; the peer when there is none", () => {
    expect(clientAddressKey(request({ "x-forwarded-for": "6.6.6.6, 203.0.113.1 " }), true)).toBe("203.0.113.1");
    expect(clientAddressKey(request({ "x-forwarded-for": "2001:db8:1:2::3" }), true)).toBe("2001:db8:1:2::/64");
    expect(clientAddressKey(request({ "x-forwarded-for": "6.6.6.6, " }), true)).toBe("192.0.2.9");
    expect(clientAddressKey(request({}), true)).toBe("192.0.2.9");
  });
});

describe("reading the password form", () => {
  const form = { "content-type": "application/x-www-form-urlencoded; charset=UTF-8" };

  test("its fields, percent-encoded UTF-8", async () => {
    const read = await readForm(request(form, undefined, ["password=p%C3%A4", "ss+w&x=1"]));
    expect("fields" in read && read.fields.get("password")).toBe("päss w");
  });

  test("another type, a declared size past the limit, or a body growing past it, are refused", async () => {
    expect(await readForm(request({ "content-type": "application/json" }))).toEqual({ refused: "not a form" });
    expect(await readForm(request({ ...form, "content-length": "5000" }))).toEqual({ refused: "too large" });
    expect(await readForm(request(form, undefined, ["password=", "x".repeat(3000), "x".repeat(3000)]))).toEqual({ refused: "too large" });
  });
});
