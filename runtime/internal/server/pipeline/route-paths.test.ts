// Which endpoints Encore also serves with a trailing slash (runtimes/core/src/api/paths.rs).
import { describe, expect, test } from "vitest";
import type { EndpointMeta } from "../../meta/types.ts";
import { trailingSlashTwins } from "./route-paths.ts";

const at = (path: string) => ({ path }) as EndpointMeta;

describe("trailing-slash twins", () => {
  test("a literal or parameter path gets one; the root, wildcards, fallbacks and paths ending in / do not", () => {
    const metas = ["/test-other-error", "/:code", "/a/:id/b", "/", "/files/*rest", "/!page", "/docs/", "/app/!rest"].map(at);
    expect([...trailingSlashTwins(metas)].map((m) => m.path)).toEqual(["/test-other-error", "/:code", "/a/:id/b"]);
  });

  test("not where another endpoint declares that path, its parameters named otherwise or not", () => {
    const metas = ["/foo", "/foo/", "/:a", "/:b/", "/files", "/files/*rest"].map(at);
    expect([...trailingSlashTwins(metas)].map((m) => m.path)).toEqual([]);
  });

  test("a fallback's path does not stop a main route's twin: the two are routed apart", () => {
    expect([...trailingSlashTwins(["/docs", "/docs/!topic"].map(at))].map((m) => m.path)).toEqual(["/docs"]);
  });
});
