import { api, APIError } from "encore.dev/api";
import type { Max, MaxLen, Min, MinLen } from "encore.dev/validate";
import { callerCustomer } from "./checks/customer";
import { orderCreated } from "./events";
import { insertOrder } from "./storage/order-store";

export interface CreateOrderRequest {
  /**
   * The caller's own user id, or left out (the same): an order is placed by its
   * customer. Another user's is 403 (see checks/customer.ts).
   */
  customerId?: string & MinLen<1> & MaxLen<100>;
  /** In the shop's currency (USD), at most 2 decimal places; a string such as "10" is rejected. */
  total: number & Min<0> & Max<9999999999.99>;
}

/** The create response: the order's id as a string. */
export interface Order {
  id: string;
  customerId: string;
  total: number;
}

/**
 * Places an order for the signed-in caller, then publishes `order-created`.
 *
 * The order is committed first, then published. If publishing fails the request
 * fails with 500 (the cause kept) and the order stays stored without its event; a
 * crash between the two does the same. A client retrying after that 500 places a
 * second order. Closing that gap takes an outbox written in the order's
 * transaction, as links/outbox/url-store.ts does for url-shortened (not done here).
 */
export const create = api(
  { expose: true, auth: true, method: "POST", path: "/orders" },
  async ({ customerId, total }: CreateOrderRequest): Promise<Order> => {
    const customer = callerCustomer(customerId, "you may only place orders as yourself");
    const amount = cents(total);
    const order = await insertOrder(customer, amount);
    await orderCreated.publish({
      orderId: String(order.id),
      customerId: order.customerId,
      total: Number(order.total),
      createdAt: order.createdAt,
    });
    return { id: String(order.id), customerId: order.customerId, total: Number(order.total) };
  },
);

/** The exact decimal text of a JSON number with at most two decimal places ("12.3" for 12.3). */
function cents(total: number): string {
  const text = total.toFixed(2);
  // 12.345 would be rounded by numeric(12,2); refuse it rather than store another amount.
  if (Number(text) !== total) throw APIError.invalidArgument(`total must have at most 2 decimal places, got ${total}`);
  return text;
}
