import { describe, expect, it } from "vitest";
import { fixture, withoutRefs } from "../../../test/parser-fixtures.ts";
import { parseApp } from "../mod.ts";

describe("a topic with an orderingAttribute", () => {
  const meta = parseApp(fixture("ordered-topic"));

  it("is accepted when it names an Attribute field, and its Attribute fields are plain values in the message's schema", () => {
    const [topic] = meta.topics;
    expect(topic?.name).toBe("cart-events");
    expect(withoutRefs(topic?.message)).toEqual({
      type: "object",
      properties: {
        cartId: { type: "string" },
        shopNumber: { type: "number" },
        gift: { type: "boolean" },
        region: { type: "string" },
        note: { type: "string" },
      },
      required: ["cartId", "shopNumber", "gift", "note"],
    });
  });
});
