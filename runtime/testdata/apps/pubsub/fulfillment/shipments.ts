import { api, APIError } from "encore.dev/api";
import { Subscription } from "encore.dev/pubsub";
import { SQLDatabase } from "encore.dev/storage/sqldb";
import { orderPlaced } from "../checkout/events";

const db = new SQLDatabase("fulfillment", { migrations: "./migrations" });

export interface Shipment {
  orderId: string;
  item: string;
  quantity: number;
}

// Delivery is at least once: a redelivered order must not make a second shipment.
const _ = new Subscription(orderPlaced, "create-shipment", {
  handler: async ({ orderId, item, quantity }) => {
    await db.exec`
      INSERT INTO shipments (order_id, item, quantity)
      VALUES (${orderId}, ${item}, ${quantity})
      ON CONFLICT (order_id) DO NOTHING`;
  },
});

/** The shipment made for an order; not found until the order's event has been handled. */
export const getShipment = api(
  { expose: true, method: "GET", path: "/shipments/:orderId" },
  async ({ orderId }: { orderId: string }): Promise<Shipment> => {
    const row = await db.queryRow<Shipment>`
      SELECT order_id AS "orderId", item, quantity FROM shipments WHERE order_id = ${orderId}`;
    if (!row) throw APIError.notFound(`no shipment for order ${orderId} yet`);
    return row;
  },
);

export interface ShipmentCount {
  count: number;
}

/** How many shipments have been made, one per distinct order. */
export const countShipments = api(
  { expose: true, method: "GET", path: "/shipments" },
  async (): Promise<ShipmentCount> => {
    const row = await db.queryRow<ShipmentCount>`SELECT count(*)::int AS count FROM shipments`;
    return { count: row?.count ?? 0 };
  },
);
