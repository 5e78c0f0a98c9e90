import { randomUUID } from "node:crypto";
import { api } from "encore.dev/api";
import type { Min, MinLen } from "encore.dev/validate";
import { orderPlaced } from "./events";

export interface PlaceOrder {
  item: string & MinLen<1>;
  quantity: number & Min<1>;
}

export interface PlacedOrder {
  orderId: string;
}

/** Accepts an order and publishes it; the shipment is made asynchronously by fulfillment. */
export const placeOrder = api(
  { expose: true, method: "POST", path: "/orders" },
  async ({ item, quantity }: PlaceOrder): Promise<PlacedOrder> => {
    const orderId = randomUUID();
    await orderPlaced.publish({ orderId, item, quantity });
    return { orderId };
  },
);
