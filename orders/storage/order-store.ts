import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { orm as defaultOrm, type Orm } from "../db";
import { orderItems, orders } from "../schema";

// Every query of orders and order_items, in one place. Money stays a numeric string
// (exact) here; endpoints turn it into a JSON number only to answer.

export interface StoredItem {
  productId: number | null;
  name: string;
  quantity: number;
  /** Unit price, numeric(12,2) as text. */
  price: string;
}

export interface StoredOrder {
  id: number;
  customerId: string;
  status: string;
  /** numeric(12,2) as text. */
  total: string;
  createdAt: Date;
}

export interface StoredOrderWithItems extends StoredOrder {
  items: StoredItem[];
}

const orderColumns = {
  id: orders.id,
  customerId: orders.customerId,
  status: orders.status,
  total: orders.total,
  createdAt: orders.createdAt,
};

const itemColumns = {
  orderId: orderItems.orderId,
  productId: orderItems.productId,
  name: orderItems.name,
  quantity: orderItems.quantity,
  price: orderItems.price,
};

/** Stores an order with no items; `total` is a decimal string such as "12.30". */
export async function insertOrder(customerId: string, total: string): Promise<StoredOrder> {
  const [row] = await defaultOrm.insert(orders).values({ customerId, total }).returning(orderColumns);
  return row!;
}

/** One order with its items (two queries), or undefined. */
export async function findOrder(id: number): Promise<StoredOrderWithItems | undefined> {
  const [order] = await defaultOrm.select(orderColumns).from(orders).where(eq(orders.id, id));
  if (!order) return undefined;
  const items = await defaultOrm
    .select(itemColumns)
    .from(orderItems)
    .where(eq(orderItems.orderId, id))
    .orderBy(asc(orderItems.id));
  return { ...order, items: items.map(itemOf) };
}

/**
 * A page of a customer's orders, newest first (id descending: ids are assigned in
 * creation order, and the order is total). Keyset paging, `id < before`, so a page
 * never repeats or skips rows when orders are added meanwhile. Asks for one row more
 * than `limit` to tell whether another page follows.
 */
export async function listOrders(opts: { customerId: string; before?: number; limit: number }): Promise<StoredOrder[]> {
  const conditions: SQL[] = [eq(orders.customerId, opts.customerId)];
  if (opts.before !== undefined) conditions.push(lt(orders.id, opts.before));
  return defaultOrm
    .select(orderColumns)
    .from(orders)
    .where(and(...conditions))
    .orderBy(desc(orders.id))
    .limit(opts.limit + 1);
}

/**
 * A customer's most recent orders with their items in two queries whatever their
 * number: the orders, then every item of those orders at once (not one query per
 * order, the N+1 pattern). `orm` is a parameter so a test can count the queries sent.
 */
export async function recentOrders(customerId: string, limit: number, orm: Orm = defaultOrm): Promise<StoredOrderWithItems[]> {
  const recent = await orm
    .select(orderColumns)
    .from(orders)
    .where(eq(orders.customerId, customerId))
    .orderBy(desc(orders.id))
    .limit(limit);
  if (recent.length === 0) return [];
  const items = await orm
    .select(itemColumns)
    .from(orderItems)
    .where(inArray(orderItems.orderId, recent.map((o) => o.id)))
    .orderBy(asc(orderItems.orderId), asc(orderItems.id));
  const byOrder = new Map<number, StoredItem[]>(recent.map((o) => [o.id, []]));
  for (const item of items) byOrder.get(item.orderId)!.push(itemOf(item));
  return recent.map((o) => ({ ...o, items: byOrder.get(o.id)! }));
}

/** How many orders a customer placed since `since`, and their total (summed in SQL, exact). */
export async function customerTotals(customerId: string, since: Date): Promise<{ count: number; total: string }> {
  const [row] = await defaultOrm
    .select({
      count: sql<number>`count(*)::int`,
      total: sql<string>`coalesce(sum(${orders.total}), 0)::numeric(14,2)::text`,
    })
    .from(orders)
    .where(and(eq(orders.customerId, customerId), gte(orders.createdAt, since)));
  return row!;
}

const itemOf = ({ productId, name, quantity, price }: StoredItem): StoredItem => ({ productId, name, quantity, price });
