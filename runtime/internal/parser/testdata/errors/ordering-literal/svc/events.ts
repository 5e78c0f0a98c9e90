import { Topic, type Attribute } from "encore.dev/pubsub";

interface CartEvent {
  cartId: Attribute<string>;
}

const attribute = "cartId";

export const carts = new Topic<CartEvent>("carts", {
  deliveryGuarantee: "at-least-once",
  orderingAttribute: attribute,
});
