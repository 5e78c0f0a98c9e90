import { api, type Query } from "encore.dev/api";
import type { Max, MaxLen, Min, MinLen } from "encore.dev/validate";
import { callerCustomer, callerId } from "./checks/customer";
import { requireInteger } from "./checks/ids";
import { listOrders, recentOrders, type StoredOrder, type StoredOrderWithItems } from "./storage/order-store";
import type { OrderItem } from "./get";

export interface ListOrdersRequest {
  /** The caller's own user id, or left out (the same); another user's is 403. */
  customerId?: Query<string & MinLen<1> & MaxLen<100>>;
  /** Orders per page, 1 to 100; default 20. */
  limit?: Query<number & Min<1> & Max<100>>;
  /** Where to continue: the `nextCursor` of the previous page. */
  cursor?: Query<number & Min<1> & Max<2147483647>>;
}

export interface OrderSummary {
  id: number;
  customerId: string;
  status: string;
  total: number;
  createdAt: Date;
}

export interface ListOrdersResponse {
  /** Newest first (by id). */
  orders: OrderSummary[];
  /** Present when more orders follow: pass it as `cursor` for the next page. */
  nextCursor?: number;
}

const defaultLimit = 20;

/** The caller's orders, newest first, a page at a time. */
export const list = api(
  { expose: true, auth: true, method: "GET", path: "/orders" },
  async ({ customerId, limit = defaultLimit, cursor }: ListOrdersRequest): Promise<ListOrdersResponse> => {
    const customer = callerCustomer(customerId, "you may only list your own orders");
    requireInteger(limit, "limit");
    if (cursor !== undefined) requireInteger(cursor, "cursor");
    const rows = await listOrders({ customerId: customer, before: cursor, limit });
    const page = rows.slice(0, limit).map(summaryOf);
    return rows.length > limit ? { orders: page, nextCursor: page.at(-1)!.id } : { orders: page };
  },
);

export interface RecentOrder extends OrderSummary {
  items: OrderItem[];
}

/** The N+1 example lists the 50 newest orders: enough that a query per order would show. */
const recentCount = 50;

/** The caller's 50 most recent orders with their items, in two queries (not 51). */
export const recent = api(
  { expose: true, auth: true, method: "GET", path: "/orders/recent" },
  async (): Promise<{ orders: RecentOrder[] }> => ({ orders: (await recentOrders(callerId(), recentCount)).map(recentOf) }),
);

const summaryOf = (o: StoredOrder): OrderSummary => ({
  id: o.id,
  customerId: o.customerId,
  status: o.status,
  total: Number(o.total),
  createdAt: o.createdAt,
});

const recentOf = (o: StoredOrderWithItems): RecentOrder => ({
  ...summaryOf(o),
  items: o.items.map((i) => ({ productId: i.productId, name: i.name, quantity: i.quantity, price: Number(i.price) })),
});
