// The url service keeps its own list of the routes' first path segments (Encore gives app
// code no route table): it must name every fixed first segment the app and the runtime serve.
// The web front end's fallback route ("/!path", web/static.ts) has no fixed segment: it
// is tried only when no other route matches, so it shadows no code; its assets live
// under /_app/, which no code takes: a random code has no "_", and an alias chosen by a
// user may not be "_app" in any case (links/records/options.ts checkAlias).
import { expect, test } from "vitest";
import { appRoot } from "../runtime/internal/config/app-root.ts";
import { runtimeRoutes } from "../runtime/internal/meta/runtime-routes.ts";
import { parseApp } from "../runtime/internal/parser/mod.ts";
import { routeFirstSegments } from "../links/shortening/route-segments.ts";

test("links/shortening/route-segments.ts lists the first segment of every fixed route, and nothing else", () => {
  const meta = parseApp(appRoot);
  const paths = [...runtimeRoutes, ...meta.services.flatMap((s) => s.endpoints.map((e) => e.path))];
  const fixed = new Set(paths.map((p) => p.split("/")[1] ?? "").filter((s) => s !== "" && !/^[:*!]/.test(s)));
  expect([...routeFirstSegments].sort()).toEqual([...fixed].sort());
}, 120_000); // a TypeScript program of the whole app: 5–20 s, longer on a busy machine
