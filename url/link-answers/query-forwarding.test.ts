import { describe, expect, test } from "vitest";
import { withQuery } from "./query-forwarding";

describe("withQuery", () => {
  test.each([
    ["https://a.example/p", "utm=x", "https://a.example/p?utm=x"],
    ["https://a.example/", "a=1&b=2", "https://a.example/?a=1&b=2"],
    ["https://a.example/p?id=1", "utm=x", "https://a.example/p?id=1&utm=x"],
    // the target's own parameter wins a clash; the others still come
    ["https://a.example/p?utm=own", "utm=x&ref=y", "https://a.example/p?utm=own&ref=y"],
    // the fragment stays at the end
    ["https://a.example/p#top", "utm=x", "https://a.example/p?utm=x#top"],
    ["https://a.example/p?id=1#top", "id=2&utm=x", "https://a.example/p?id=1&utm=x#top"],
    // a name clashes decoded: a%62 is ab, + is a space
    ["https://a.example/p?ab=1&c%20d=2", "a%62=9&c+d=9&e=3", "https://a.example/p?ab=1&c%20d=2&e=3"],
    // repeated and valueless parameters go on as sent
    ["https://a.example/p", "t=1&t=2&flag", "https://a.example/p?t=1&t=2&flag"],
    // empty pieces are dropped; nothing left adds nothing
    ["https://a.example/p", "&&a=1&", "https://a.example/p?a=1"],
    ["https://a.example/p?x=1", "x=2", "https://a.example/p?x=1"],
    ["https://a.example/p", "", "https://a.example/p"],
    ["https://a.example/p", "&", "https://a.example/p"],
    // a target ending in "?" gets the parameters after it
    ["https://a.example/p?", "a=1", "https://a.example/p?a=1"],
    // a fragment in the request (no browser sends one) is not forwarded
    ["https://a.example/p", "a=1#evil", "https://a.example/p?a=1"],
  ])("%s with ?%s is %s", (target, query, expected) => {
    expect(withQuery(target, query)).toBe(expected);
  });

  test("bytes beyond printable ASCII (latin1 characters from Node) go on percent-encoded", () => {
    // "é" sent raw in UTF-8 is the two bytes C3 A9, which Node reads as two latin1 characters.
    expect(withQuery("https://a.example/", `q=${Buffer.from("é").toString("latin1")}`)).toBe("https://a.example/?q=%C3%A9");
  });

  test("the target is returned as it is (the same string) when nothing is added", () => {
    const target = "https://a.example/p?x=1";
    expect(withQuery(target, "x=2")).toBe(target);
  });
});
