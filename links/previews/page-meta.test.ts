import { describe, expect, test } from "vitest";
import { pageMeta } from "./page-meta";

describe("pageMeta", () => {
  test("Open Graph first, then Twitter, then plain HTML", () => {
    const html = `<html><head><title>Plain</title><meta name="description" content="plain words">
      <meta name="twitter:title" content="Tweet title"><meta property="og:title" content="OG title">
      <meta name="twitter:image" content="/t.png"><meta property="og:description" content="OG words"></head><body></body></html>`;
    expect(pageMeta(html)).toEqual({ title: "OG title", description: "OG words", image: "/t.png" });
  });

  test("the fallbacks alone", () => {
    expect(pageMeta(`<title>  Just\n a   title </title><meta name="description" content="d">`)).toEqual({ title: "Just a title", description: "d" });
  });

  test("entities decoded, attributes in any case and quoting, comments and scripts not read", () => {
    const html = `<HEAD><!-- <meta property="og:title" content="commented"> -->
      <script>var s = '<meta property="og:title" content="scripted">';</script>
      <META PROPERTY='og:title' CONTENT='Fish &amp; chips &lt;b&gt;'><meta property=og:image content=https://x.example/a.png?a=1&amp;b=2></HEAD>`;
    expect(pageMeta(html)).toEqual({ title: "Fish & chips <b>", image: "https://x.example/a.png?a=1&b=2" });
  });

  test("the first of each kind wins; empty values are none", () => {
    expect(pageMeta(`<meta property="og:title" content=""><meta property="og:title" content="first"><meta property="og:title" content="second"><title>t</title>`)).toEqual({
      title: "first",
    });
  });

  test("what comes after </head> is not read", () => {
    expect(pageMeta(`<head><title>in head</title></head><body><meta property="og:description" content="in body">`)).toEqual({ title: "in head" });
  });

  test("a page with nothing, or not HTML at all", () => {
    expect(pageMeta("")).toEqual({});
    expect(pageMeta("<<<>>> \u0000 </title>")).toEqual({});
  });
});
