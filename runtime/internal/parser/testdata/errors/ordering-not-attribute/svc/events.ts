import { Topic, type Attribute } from "encore.dev/pubsub";

interface CartEvent {
  cartId: string;
  shopId: Attribute<string>;
}

export const carts = new Topic<CartEvent>("carts", {
  deliveryGuarantee: "at-least-once",
  // @ts-expect-error cartId is not an Attribute: TypeScript refuses it, and so does generation.
  orderingAttribute: "cartId",
});
