import { describe, expect, it } from "vitest";
import { parsePath } from "./routes.ts";

describe("parsePath", () => {
  it.each([
    ["/", []],
    ["/url", []],
    ["/url/:id", [{ name: "id", wildcard: false }]],
    ["/a/:x/b/:y", [{ name: "x", wildcard: false }, { name: "y", wildcard: false }]],
    ["/files/*rest", [{ name: "rest", wildcard: true }]],
  ])("reads %s", (path, params) => {
    expect(parsePath(path)).toEqual(params);
  });

  it.each([
    ["url", 'path "url" must start with "/"'],
    ["/a//b", 'path "/a//b" has an empty segment'],
    ["/a/", 'path "/a/" has an empty segment'],
    ["/*rest/more", 'path "/*rest/more": the wildcard "*rest" must be the last segment'],
    ["/:id/:id", 'path "/:id/:id": parameter "id" appears twice'],
    ["/:", 'path "/:": invalid parameter name ""'],
    ["/a:b", 'path "/a:b": ":" and "*" may only start a segment'],
    ["/!fallback", 'path "/!fallback": fallback segments ("!name") are not supported'],
  ])("rejects %s", (path, problem) => {
    expect(parsePath(path)).toBe(problem);
  });
});
