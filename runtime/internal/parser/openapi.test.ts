import { beforeAll, describe, expect, it } from "vitest";
import { fixture } from "../../test/parser-fixtures.ts";
import { parseApp } from "./mod.ts";
import { toOpenAPI, toOpenAPIPath } from "./openapi.ts";

interface Document {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, unknown> };
}

let doc: Document;
beforeAll(() => {
  doc = toOpenAPI(parseApp(fixture("locations")), "Locations") as Document;
});

describe("toOpenAPI", () => {
  it("converts Encore paths to OpenAPI templates", () => {
    expect(toOpenAPIPath("/url/:id")).toBe("/url/{id}");
    expect(toOpenAPIPath("/files/*rest")).toBe("/files/{rest}");
    expect(toOpenAPIPath("/app/!rest")).toBe("/app/{rest}");
    expect(toOpenAPIPath("/a/:x/b/:y")).toBe("/a/{x}/b/{y}");
  });

  it("lists only exposed typed endpoints", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.title).toBe("Locations");
    expect(Object.keys(doc.paths)).toEqual(["/search", "/items/{id}", "/ping"]);
    expect(Object.keys(doc.paths["/items/{id}"] ?? {})).toEqual(["put"]);
  });

  it("describes query parameters and strips runtime-only keys", () => {
    const search = doc.paths["/search"]?.["get"];
    expect(search?.["operationId"]).toBe("loc.search");
    expect(search?.["parameters"]).toEqual([
      { name: "term", in: "query", required: true, schema: { type: "string" } },
      { name: "limit", in: "query", required: false, schema: { type: "number" } },
      { name: "tags", in: "query", required: true, schema: { type: "array", items: { type: "string" } } },
      { name: "since", in: "query", required: true, schema: { type: "string", format: "date-time" } },
      { name: "kind", in: "query", required: true, schema: { type: "string", enum: ["a", "b"] } },
    ]);
    expect(search?.["requestBody"]).toBeUndefined();
    expect(search?.["responses"]).toEqual({
      "200": {
        description: "Success",
        content: {
          "application/json": { schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } },
        },
      },
      default: { description: "Error", content: { "application/json": { schema: { $ref: "#/components/schemas/APIError" } } } },
    });
  });

  it("describes path, header and body parts", () => {
    const update = doc.paths["/items/{id}"]?.["put"];
    const parameters = update?.["parameters"] as { name: string; in: string }[];
    expect(parameters.map((p) => `${p.in}:${p.name}`)).toEqual([
      "path:id",
      "query:dry_run",
      "query:q",
      "query:pages",
      "header:authorization",
      "header:x-count",
      "header:plain",
      "header:x-request-id",
    ]);
    expect(update?.["requestBody"]).toEqual({
      required: true,
      content: {
        "application/json": { schema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] } },
      },
    });
    expect(update?.["responses"]).toHaveProperty("200", { description: "Success" });
  });

  it("shares one error schema", () => {
    expect(doc.components.schemas["APIError"]).toEqual({
      type: "object",
      properties: { code: { type: "string" }, message: { type: "string" }, details: { type: ["object", "null"] } },
      required: ["code", "message", "details"],
    });
  });
});
