// GET /robots.txt's rules against the app's own routes: every fixed path is kept from
// crawlers, short links are not.
import { expect, test } from "vitest";
import { appRoot } from "../runtime/internal/config/app-root.ts";
import { runtimeRoutes } from "../runtime/internal/meta/runtime-routes.ts";
import { parseApp } from "../runtime/internal/parser/mod.ts";
import { robotsTxtFor } from "../url/robots/robots-txt.ts";

/**
 * Whether a crawler reading `robots` may fetch `path`, as RFC 9309 and Google read it: the
 * longest matching rule wins, Allow on a tie; `*` matches any characters, a final `$` the end.
 */
function allowed(robots: string, path: string): boolean {
  let best: { length: number; allow: boolean } = { length: -1, allow: true };
  for (const line of robots.split("\n")) {
    const match = /^(Allow|Disallow): (.*)$/.exec(line);
    if (!match) continue;
    const [, kind, rule] = match as unknown as [string, string, string];
    const anchored = rule.endsWith("$");
    const body = anchored ? rule.slice(0, -1) : rule;
    const pattern = new RegExp(`^${body.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}${anchored ? "$" : ""}`);
    if (!pattern.test(path)) continue;
    const allow = kind === "Allow";
    if (rule.length > best.length || (rule.length === best.length && allow)) best = { length: rule.length, allow };
  }
  return best.allow;
}

test("every fixed route of the app and the runtime is disallowed; short links, their start page and robots.txt are not", () => {
  const robots = robotsTxtFor("sho.rt");
  const meta = parseApp(appRoot);
  const paths = [...runtimeRoutes, ...meta.services.flatMap((s) => s.endpoints.map((e) => e.path))]
    // A parameter or the rest of a path as some value; the short link's own routes are asked below.
    .map((p) => p.replace(/[:*!][A-Za-z]+/g, "x1"))
    .filter((p) => !["/x1", "/", "/robots.txt"].includes(p));
  expect(paths.length).toBeGreaterThan(50);
  expect(paths.filter((p) => allowed(robots, p))).toEqual([]);
  for (const path of ["/k3x9qa", "/Spring-Sale_2030", "/linksale", "/shortener", "/", "/robots.txt"]) expect(allowed(robots, path), path).toBe(true);
  for (const path of ["/k3x9qa/stats", "/k3x9qa/analytics", "/_app/index.js", "/links", "/links/k3x9qa"]) expect(allowed(robots, path), path).toBe(false);
}, 120_000); // a TypeScript program of the whole app: 5–20 s, longer on a busy machine
