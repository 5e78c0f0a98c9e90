import { drizzle } from "drizzle-orm/node-postgres";
import { Subscription } from "encore.dev/pubsub";
import { afterAll, describe, expect, test } from "vitest";
import { orders as client } from "~encore/clients";
import { db, orm } from "./db";
import { orderCreated, type OrderCreated } from "./events";
import { recentOrders } from "./storage/order-store";
import { preview } from "./preview";
import { getProduct } from "./products";
import { orderItems, orders } from "./schema";
import { apiKeyScopes } from "../access/scopes";

// The seed migration's products: 1 T-shirt 25.00, 2 stickers 4.99, 3 mug 12.50, 4 hoodie 59.95.

// Declared here, as a second subscriber of the topic: it receives every message too.
const received: OrderCreated[] = [];
new Subscription(orderCreated, "test-order-created", {
  handler: async (event) => {
    received.push(event);
  },
});

let customers = 0;
const newCustomer = () => `customer-${++customers}`;
const ada = (userID: string) => ({ authData: { userID, email: `${userID}@example.com`, admin: false, credential: "login" as const, scopes: [...apiKeyScopes], credentialsVersion: 0 } });

/** Stores `n` orders for a customer, oldest first, each with two items; returns their ids. */
async function placeOrders(customerId: string, n: number): Promise<number[]> {
  if (n === 0) return [];
  const rows = await orm
    .insert(orders)
    .values(Array.from({ length: n }, (_, i) => ({ customerId, total: `${i + 1}.10`, status: "paid" })))
    .returning({ id: orders.id });
  await orm.insert(orderItems).values(
    rows.flatMap(({ id }) => [
      { orderId: id, productId: 1, name: "Encore T-shirt", quantity: 1, price: "25.00" },
      { orderId: id, productId: 2, name: "Sticker pack", quantity: 2, price: "4.99" },
    ]),
  );
  return rows.map((r) => r.id);
}

const orderCount = async () => (await db.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM orders`)!.n;

describe("GET /products/:id", () => {
  test("a seeded product comes back with its exact price", async () => {
    expect(await getProduct({ id: 2 })).toMatchObject({ id: 2, name: "Sticker pack", price: 4.99, currency: "USD" });
  });

  test("an unknown product is not_found", async () => {
    await expect(getProduct({ id: 999 })).rejects.toMatchObject({ code: "not_found", message: "product not found" });
  });

  test.each([["a string", "2"], ["a fraction", 1.5], ["zero", 0], ["beyond int4", 2147483648]])(
    "an id that is %s is invalid_argument",
    async (_what, id) => {
      await expect(client.getProduct({ id: id as never })).rejects.toMatchObject({ code: "invalid_argument" });
    },
  );
});

describe("POST /orders/preview", () => {
  test("prices a cart exactly, without storing an order", async () => {
    const before = await orderCount();
    const result = await preview({ items: [{ productId: 2, quantity: 3 }, { productId: 3, quantity: 1 }] });
    // 3 × 4.99 + 12.50 = 27.47; in binary floating point 3 * 4.99 + 12.5 is 27.470000000000002.
    expect(result).toEqual({
      items: [
        { productId: 2, name: "Sticker pack", quantity: 3, price: 4.99, lineTotal: 14.97 },
        { productId: 3, name: "Coffee mug", quantity: 1, price: 12.5, lineTotal: 12.5 },
      ],
      total: 27.47,
      currency: "USD",
    });
    expect(await orderCount()).toBe(before);
  });

  test("an unknown product is not_found, naming it", async () => {
    await expect(preview({ items: [{ productId: 1, quantity: 1 }, { productId: 404, quantity: 1 }] })).rejects.toMatchObject({
      code: "not_found",
      message: "product 404 not found",
    });
  });

  test.each<[string, unknown]>([
    ["a zero quantity", [{ productId: 1, quantity: 0 }]],
    ["a negative quantity", [{ productId: 1, quantity: -2 }]],
    ["a fractional quantity", [{ productId: 1, quantity: 1.5 }]],
    ["a quantity as a string", [{ productId: 1, quantity: "2" }]],
    ["a product id as a string", [{ productId: "1", quantity: 1 }]],
    ["an empty cart", []],
    ["items that are not an array", { productId: 1, quantity: 1 }],
  ])("%s is invalid_argument", async (_what, items) => {
    await expect(client.preview({ items: items as never })).rejects.toMatchObject({ code: "invalid_argument" });
  });
});

describe("POST /orders", () => {
  test("stores the order and answers with the create response", async () => {
    const customerId = newCustomer();
    const order = await client.create({ customerId, total: 27.47 }, ada(customerId));
    expect(order).toEqual({ id: expect.stringMatching(/^[1-9][0-9]*$/), customerId, total: 27.47 });
    const stored = await db.queryRow<{ total: string; status: string }>`
      SELECT total::text AS total, status FROM orders WHERE id = ${Number(order.id)}`;
    expect(stored).toEqual({ total: "27.47", status: "pending" });
  });

  test("publishes order-created, received by a subscription", async () => {
    const customerId = newCustomer();
    const order = await client.create({ customerId, total: 10 }, ada(customerId));
    await expect.poll(() => received.find((e) => e.customerId === customerId), { timeout: 20_000 }).toBeDefined();
    const event = received.find((e) => e.customerId === customerId)!;
    expect(event).toMatchObject({ orderId: order.id, customerId, total: 10 });
    expect(new Date(event.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  test.each<[string, Record<string, unknown>]>([
    ["a total as a string", { customerId: "c", total: "10" }],
    ["a customerId as a number", { customerId: 7, total: 10 }],
    ["a missing total", { customerId: "c" }],
    ["a negative total", { customerId: "c", total: -1 }],
    ["a total beyond numeric(12,2)", { customerId: "c", total: 1e10 }],
    ["a total with fractions of a cent", { customerId: "c", total: 1.005 }],
    ["an empty customerId", { customerId: "", total: 1 }],
  ])("%s is invalid_argument and stores nothing", async (_what, body) => {
    const before = await orderCount();
    await expect(client.create(body as never, ada("c"))).rejects.toMatchObject({ code: "invalid_argument" });
    expect(await orderCount()).toBe(before);
  });

  test("without a customerId the order is the caller's", async () => {
    const customerId = newCustomer();
    const order = await client.create({ total: 3 }, ada(customerId));
    expect(order).toMatchObject({ customerId, total: 3 });
    const stored = await db.queryRow<{ customer_id: string }>`SELECT customer_id FROM orders WHERE id = ${Number(order.id)}`;
    expect(stored!.customer_id).toBe(customerId);
  });

  test("an order for another customer is permission_denied and stores nothing", async () => {
    const before = await orderCount();
    await expect(client.create({ customerId: "someone-else", total: 1 }, ada(newCustomer()))).rejects.toMatchObject({
      code: "permission_denied",
      message: "you may only place orders as yourself",
    });
    expect(await orderCount()).toBe(before);
  });

  test("without a caller it is unauthenticated and stores nothing", async () => {
    const before = await orderCount();
    await expect(client.create({ customerId: "anyone", total: 1 })).rejects.toMatchObject({ code: "unauthenticated" });
    expect(await orderCount()).toBe(before);
  });
});

describe("GET /orders/:id and GET /api/orders/:id", () => {
  test("an order comes back with its items, to its own customer", async () => {
    const customerId = newCustomer();
    const [id] = await placeOrders(customerId, 1);
    expect(await client.getOrder({ id: id! }, ada(customerId))).toEqual({
      id,
      status: "paid",
      items: [
        { productId: 1, name: "Encore T-shirt", quantity: 1, price: 25 },
        { productId: 2, name: "Sticker pack", quantity: 2, price: 4.99 },
      ],
      total: 1.1,
    });
  });

  test("the REST shape is snake_case, for the order's own customer", async () => {
    const customerId = newCustomer();
    const [id] = await placeOrders(customerId, 1);
    expect(await client.getRestOrder({ id: id! }, ada(customerId))).toEqual({
      id,
      status: "paid",
      customer_id: customerId,
      items: [
        { product_id: 1, name: "Encore T-shirt", quantity: 1, price: 25 },
        { product_id: 2, name: "Sticker pack", quantity: 2, price: 4.99 },
      ],
      total: 1.1,
    });
  });

  test("another customer's order is permission_denied on both; no caller is unauthenticated", async () => {
    const [id] = await placeOrders(newCustomer(), 1);
    const denied = { code: "permission_denied", message: "this order belongs to another customer" };
    await expect(client.getOrder({ id: id! }, ada("someone-else"))).rejects.toMatchObject(denied);
    await expect(client.getRestOrder({ id: id! }, ada("someone-else"))).rejects.toMatchObject(denied);
    await expect(client.getOrder({ id: id! })).rejects.toMatchObject({ code: "unauthenticated" });
    await expect(client.getRestOrder({ id: id! })).rejects.toMatchObject({ code: "unauthenticated" });
  });

  test("a missing order is not_found on both", async () => {
    await expect(client.getOrder({ id: 987654 }, ada("anyone"))).rejects.toMatchObject({ code: "not_found", message: "order not found" });
    await expect(client.getRestOrder({ id: 987654 }, ada("anyone"))).rejects.toMatchObject({ code: "not_found" });
  });

  test.each([["a string", "abc"], ["a fraction", 1.5], ["a negative number", -1]])("an id that is %s is invalid_argument", async (_w, id) => {
    await expect(client.getOrder({ id: id as never }, ada("anyone"))).rejects.toMatchObject({ code: "invalid_argument" });
    await expect(client.getRestOrder({ id: id as never }, ada("anyone"))).rejects.toMatchObject({ code: "invalid_argument" });
  });
});

describe("GET /orders (paged)", () => {
  async function allPages(customerId: string, limit?: number): Promise<{ pages: number[][]; cursors: (number | undefined)[] }> {
    const pages: number[][] = [];
    const cursors: (number | undefined)[] = [];
    let cursor: number | undefined;
    do {
      const page = await client.list({ customerId, limit, cursor }, ada(customerId));
      pages.push(page.orders.map((o) => o.id));
      cursors.push(page.nextCursor);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return { pages, cursors };
  }

  test.each([0, 1, 20])("%i orders fit on one page of 20, with no cursor", async (n) => {
    const customerId = newCustomer();
    const ids = await placeOrders(customerId, n);
    const { pages, cursors } = await allPages(customerId);
    expect(pages).toEqual([ids.reverse()]);
    expect(cursors).toEqual([undefined]);
  });

  test("21 orders are a page of 20, newest first, and a page of 1", async () => {
    const customerId = newCustomer();
    const ids = (await placeOrders(customerId, 21)).reverse();
    const { pages } = await allPages(customerId);
    expect(pages).toEqual([ids.slice(0, 20), ids.slice(20)]);
  });

  test("each order carries its customer, status, exact total and time", async () => {
    const customerId = newCustomer();
    const [id] = await placeOrders(customerId, 1);
    const { orders: page } = await client.list({ customerId }, ada(customerId));
    expect(page).toEqual([{ id, customerId, status: "paid", total: 1.1, createdAt: expect.any(Date) }]);
  });

  test("without customerId it pages through the caller's orders only, newest first", async () => {
    const customerId = newCustomer();
    const mine = await placeOrders(customerId, 3);
    await placeOrders(newCustomer(), 2); // someone else's, newer
    const first = await client.list({ limit: 2 }, ada(customerId));
    expect(first.orders.map((o) => o.id)).toEqual([mine[2], mine[1]]);
    const second = await client.list({ limit: 2, cursor: first.nextCursor }, ada(customerId));
    expect(second.orders.map((o) => o.id)).toEqual([mine[0]]);
    expect(second.nextCursor).toBeUndefined();
  });

  test("another customer's orders are permission_denied; no caller is unauthenticated", async () => {
    const customerId = newCustomer();
    await placeOrders(customerId, 1);
    await expect(client.list({ customerId }, ada(newCustomer()))).rejects.toMatchObject({
      code: "permission_denied",
      message: "you may only list your own orders",
    });
    await expect(client.list({ customerId })).rejects.toMatchObject({ code: "unauthenticated" });
    await expect(client.list({})).rejects.toMatchObject({ code: "unauthenticated" });
  });

  test.each<[string, Record<string, unknown>]>([
    ["a limit of 0", { limit: 0 }],
    ["a limit over 100", { limit: 101 }],
    ["a fractional limit", { limit: 2.5 }],
    ["a cursor that is not a number", { cursor: "abc" }],
  ])("%s is invalid_argument", async (_what, params) => {
    await expect(client.list(params as never, ada("anyone"))).rejects.toMatchObject({ code: "invalid_argument" });
  });

  test("a limit of 100 is allowed", async () => {
    const customerId = newCustomer();
    await placeOrders(customerId, 3);
    expect((await client.list({ customerId, limit: 100 }, ada(customerId))).orders).toHaveLength(3);
  });
});

describe("GET /orders/recent (the N+1 example done right)", () => {
  const counting = (() => {
    let queries = 0;
    const countingOrm = drizzle(db.connectionString, { logger: { logQuery: () => void queries++ } });
    return { orm: countingOrm, reset: () => (queries = 0), count: () => queries };
  })();
  afterAll(() => counting.orm.$client.end());

  test("a customer's 50 most recent orders come with their items, in two queries", async () => {
    const customerId = newCustomer();
    const ids = (await placeOrders(customerId, 60)).reverse();
    await placeOrders(newCustomer(), 5); // someone else's, newer
    counting.reset();
    const listed = await recentOrders(customerId, 50, counting.orm);
    expect(counting.count()).toBe(2);
    expect(listed.map((o) => o.id)).toEqual(ids.slice(0, 50));
    for (const order of listed) expect(order.items.map((i) => i.name)).toEqual(["Encore T-shirt", "Sticker pack"]);
  });

  test("the endpoint answers the caller's 50 most recent orders with their items", async () => {
    const customerId = newCustomer();
    await placeOrders(customerId, 51);
    await placeOrders(newCustomer(), 3); // someone else's, newer
    const { orders: listed } = await client.recent(ada(customerId));
    expect(listed).toHaveLength(50);
    expect(listed.every((o) => o.customerId === customerId)).toBe(true);
    expect(listed[0]!.items).toEqual([
      { productId: 1, name: "Encore T-shirt", quantity: 1, price: 25 },
      { productId: 2, name: "Sticker pack", quantity: 2, price: 4.99 },
    ]);
  });

  test("without a caller it is unauthenticated", async () => {
    await expect(client.recent()).rejects.toMatchObject({ code: "unauthenticated" });
  });
});

describe("GET /checkout/summary", () => {
  test("counts and totals the caller's own recent orders, exactly", async () => {
    const customerId = newCustomer();
    await placeOrders(customerId, 3); // 1.10 + 2.10 + 3.10
    await placeOrders(newCustomer(), 2); // someone else's
    expect(await client.summary(ada(customerId))).toEqual({ count: 3, total: 6.3, currency: "USD", days: 30 });
  });

  test("a caller with no orders gets zero", async () => {
    expect(await client.summary(ada(newCustomer()))).toEqual({ count: 0, total: 0, currency: "USD", days: 30 });
  });

  test("without a caller it is unauthenticated", async () => {
    await expect(client.summary()).rejects.toMatchObject({ code: "unauthenticated" });
  });
});
