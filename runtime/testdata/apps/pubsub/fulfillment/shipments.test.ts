import { APIError, ErrCode } from "encore.dev/api";
import { checkout } from "~encore/clients";
import { describe, expect, test } from "vitest";
import { getShipment, type Shipment } from "./shipments";

/** The order's shipment once the subscription has stored it; fails after `ms`. */
async function shipmentOf(orderId: string, ms = 15_000): Promise<Shipment> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await getShipment({ orderId });
    } catch (err) {
      const waiting = err instanceof APIError && err.code === ErrCode.NotFound;
      if (!waiting || Date.now() > deadline) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("order events", () => {
  test("a placed order reaches fulfillment, which stores its shipment", async () => {
    const { orderId } = await checkout.placeOrder({ item: "tea", quantity: 3 });
    expect(await shipmentOf(orderId)).toEqual({ orderId, item: "tea", quantity: 3 });
  });

  test("an order nobody placed has no shipment", async () => {
    await expect(getShipment({ orderId: "no-such-order" })).rejects.toMatchObject({ code: ErrCode.NotFound });
  });
});
