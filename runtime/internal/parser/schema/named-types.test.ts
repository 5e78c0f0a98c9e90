import { describe, expect, it } from "vitest";
import { endpointOf, fixture } from "../../../test/parser-fixtures.ts";
import { parseApp } from "../mod.ts";

const meta = parseApp(fixture("clientgen"));
const service = (name: string) => meta.services.find((s) => s.name === name)!;

describe("doc comments, by Encore's rule", () => {
  it("takes consecutive // lines above `export default new Service(...)` as the service's doc", () => {
    expect(service("shop").doc).toBe("Shop sells things.\nIt is a fixture for the client generator.");
    expect(service("gate").doc).toBeNull();
  });

  it("takes a // line or a JSDoc block above `export const x = api(...)` as the endpoint's doc, stars removed", () => {
    expect(endpointOf(meta, "shop", "get").doc).toBe("Get returns one item.");
    expect(endpointOf(meta, "shop", "create").doc).toBe("Create adds an item.\nIt answers the new item.");
    expect(endpointOf(meta, "shop", "rename").doc).toBeNull();
  });

  it("keeps // and /** */ comments above fields as their description", () => {
    const item = endpointOf(meta, "shop", "get").response!;
    const properties = item["properties"] as Record<string, Record<string, unknown>>;
    expect(properties["name"]?.["description"]).toBe("Its display name.");
    expect(properties["tags"]?.["description"]).toBe("Free-form labels.");
    expect(properties["id"]).not.toHaveProperty("description");
  });
});

describe("x-encore-ref on named types", () => {
  it("names interfaces, aliases and enums declared in a service after that service, with their doc", () => {
    const item = endpointOf(meta, "shop", "get").response!;
    expect(item["x-encore-ref"]).toEqual({ namespace: "shop", name: "Item", doc: "An item of the shop." });
    const properties = item["properties"] as Record<string, Record<string, unknown>>;
    expect(properties["status"]?.["x-encore-ref"]).toEqual({ namespace: "shop", name: "Status", doc: "Whether an item can be bought." });
    const create = endpointOf(meta, "shop", "create").request!.full;
    expect((create["properties"] as Record<string, Record<string, unknown>>)["color"]?.["x-encore-ref"]).toMatchObject({ name: "Color" });
  });

  it("names a type declared outside any service after its folder, non-identifier characters as _", () => {
    expect(endpointOf(meta, "shop", "imported").request!.full["x-encore-ref"]).toEqual({ namespace: "common_stuff", name: "ImportedRequest", doc: null });
  });

  it("leaves generic instantiations and inline types unnamed", () => {
    expect(endpointOf(meta, "shop", "search").response).not.toHaveProperty("x-encore-ref");
    expect(endpointOf(meta, "shop", "search").request!.full).not.toHaveProperty("x-encore-ref");
  });

  it("keeps the request type's name on `full`, path fields included (clients strip them)", () => {
    const full = endpointOf(meta, "shop", "get").request!.full;
    expect(full["x-encore-ref"]).toMatchObject({ namespace: "shop", name: "GetItemRequest" });
    expect(Object.keys(full["properties"] as object)).toEqual(["id", "verbose", "trace"]);
  });
});
