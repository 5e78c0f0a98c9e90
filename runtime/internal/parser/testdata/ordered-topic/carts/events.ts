import { Topic, type Attribute } from "encore.dev/pubsub";

export interface CartEvent {
  cartId: Attribute<string>;
  shopNumber: Attribute<number>;
  gift: Attribute<boolean>;
  region?: Attribute<string>;
  note: string;
}

/** A cart's events are handled in the order they happened. */
export const cartEvents = new Topic<CartEvent>("cart-events", {
  deliveryGuarantee: "at-least-once",
  orderingAttribute: "cartId",
});
