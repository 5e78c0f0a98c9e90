// What publish() makes of a topic's orderingAttribute before any provider is involved.
import { expect, test } from "vitest";
import { Topic, type Attribute } from "../../encore.dev/pubsub/topic.ts";

interface CartEvent {
  cartId: Attribute<string>;
  note?: string;
}

const carts = new Topic<CartEvent>("ordering-key-test-carts", { deliveryGuarantee: "at-least-once", orderingAttribute: "cartId" });

test("a message without its topic's ordering attribute is refused with Encore's message", async () => {
  await expect(carts.publish({ note: "no cart" } as unknown as CartEvent)).rejects.toThrow(new Error("ordering attribute cartId not found"));
  await expect(carts.publish({ cartId: null } as unknown as CartEvent)).rejects.toThrow("ordering attribute cartId not found");
});
