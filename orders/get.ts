import { api, APIError } from "encore.dev/api";
import type { Max, Min } from "encore.dev/validate";
import { requireOwnOrder } from "./checks/customer";
import { requireInteger } from "./checks/ids";
import { findOrder, type StoredOrderWithItems } from "./storage/order-store";

export interface OrderItem {
  productId: number | null;
  name: string;
  quantity: number;
  /** Unit price when the order was placed. */
  price: number;
}

export interface OrderDetails {
  id: number;
  status: string;
  items: OrderItem[];
  total: number;
}

/** GET /api/orders/:id's answer: the order as a REST resource, its field names in snake_case. */
export interface RestOrder {
  id: number;
  status: string;
  customer_id: string;
  items: { product_id: number | null; name: string; quantity: number; price: number }[];
  total: number;
}

interface OrderId {
  /** A whole number; 1.5 is rejected with 400, "abc" before the handler runs. */
  id: number & Min<1> & Max<2147483647>;
}

/** One of the caller's orders and its items; another customer's is 403 (see checks/customer.ts), a missing one 404. */
export const getOrder = api(
  { expose: true, auth: true, method: "GET", path: "/orders/:id" },
  async ({ id }: OrderId): Promise<OrderDetails> => {
    const order = await loadOwn(id);
    return {
      id: order.id,
      status: order.status,
      items: order.items.map((i) => ({ productId: i.productId, name: i.name, quantity: i.quantity, price: Number(i.price) })),
      total: Number(order.total),
    };
  },
);

/** One of the caller's orders as a REST resource; the same access as GET /orders/:id. */
export const getRestOrder = api(
  { expose: true, auth: true, method: "GET", path: "/api/orders/:id" },
  async ({ id }: OrderId): Promise<RestOrder> => {
    const order = await loadOwn(id);
    return {
      id: order.id,
      status: order.status,
      customer_id: order.customerId,
      items: order.items.map((i) => ({ product_id: i.productId, name: i.name, quantity: i.quantity, price: Number(i.price) })),
      total: Number(order.total),
    };
  },
);

async function loadOwn(id: number): Promise<StoredOrderWithItems> {
  requireInteger(id, "id");
  const order = await findOrder(id);
  if (!order) throw APIError.notFound("order not found");
  requireOwnOrder(order);
  return order;
}
