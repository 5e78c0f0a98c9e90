// The shop's endpoints over HTTP: routing (/orders/recent beside /orders/:id),
// validation of path, query and body text, and bearer-token access.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiCaller, signUpAndLogIn } from "./support/api-client.ts";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const call = apiCaller(() => server.url);

let accounts = 0;
async function signedIn(): Promise<{ userID: string; token: string }> {
  const email = `shopper${++accounts}@example.com`;
  const { created, login, userID, token } = await signUpAndLogIn(call, email, { name: "Shopper", age: 30 });
  expect(created.status).toBe(200);
  expect(login.status).toBe(200);
  return { userID, token };
}

/** One signed-in account, made once, for the tests that only need some caller. */
let someShopper: Promise<{ userID: string; token: string }> | undefined;
const shopper = () => (someShopper ??= signedIn());

describe("the shop over HTTP", () => {
  test("seeded products are there on a fresh start", async () => {
    const res = await call("GET", "/products/1");
    expect(res).toMatchObject({ status: 200, body: { id: 1, name: "Encore T-shirt", price: 25, currency: "USD" } });
    expect((await call("GET", "/products/99")).status).toBe(404);
  });

  test("/orders/recent is its own route, not /orders/:id with id \"recent\"", async () => {
    const me = await signedIn();
    const placed = await call("POST", "/orders", { body: { total: 12.5 }, token: me.token });
    expect(placed).toMatchObject({ status: 200, body: { customerId: me.userID, total: 12.5 } });
    const recent = await call("GET", "/orders/recent", { token: me.token });
    expect(recent.status).toBe(200);
    expect((recent.body.orders as { id: number }[])[0]!.id).toBe(Number(placed.body.id));
    const one = await call("GET", `/orders/${placed.body.id as string}`, { token: me.token });
    expect(one).toMatchObject({ status: 200, body: { id: Number(placed.body.id), status: "pending", items: [], total: 12.5 } });
  });

  test.each(["abc", "1.5", "0", "-3"])("GET /orders/%s is 400 invalid_argument", async (id) => {
    const { token } = await shopper();
    expect(await call("GET", `/orders/${id}`, { token })).toMatchObject({ status: 400, body: { code: "invalid_argument" } });
  });

  test("POST /orders with a string total is 400", async () => {
    const { token } = await shopper();
    const res = await call("POST", "/orders", { raw: `{"total":"10"}`, token });
    expect(res).toMatchObject({ status: 400, body: { code: "invalid_argument" } });
  });

  test("GET /orders pages the caller's orders by query parameters; a bad limit is 400", async () => {
    const me = await signedIn();
    for (let i = 0; i < 3; i++) await call("POST", "/orders", { body: { customerId: me.userID, total: i }, token: me.token });
    const first = await call("GET", `/orders?customerId=${me.userID}&limit=2`, { token: me.token });
    expect(first.status).toBe(200);
    expect(first.body.orders).toHaveLength(2);
    const second = await call("GET", `/orders?limit=2&cursor=${first.body.nextCursor as number}`, { token: me.token });
    expect(second.body.orders).toHaveLength(1);
    expect(second.body).not.toHaveProperty("nextCursor");
    expect((await call("GET", "/orders?limit=101", { token: me.token })).status).toBe(400);
    expect((await call("GET", "/orders?limit=ten", { token: me.token })).status).toBe(400);
  });

  // The shop's access rule: an order is its customer's alone, to place, read and list.
  test("without a token, placing, reading and listing orders are 401", async () => {
    const me = await signedIn();
    const placed = await call("POST", "/orders", { body: { total: 1 }, token: me.token });
    for (const [method, path] of [
      ["POST", "/orders"],
      ["GET", `/orders/${placed.body.id as string}`],
      ["GET", `/orders?customerId=${me.userID}`],
      ["GET", "/orders"],
      ["GET", "/orders/recent"],
    ] as const) {
      const res = await call(method, path, method === "POST" ? { body: { customerId: me.userID, total: 1 } } : {});
      expect({ method, path, status: res.status, code: res.body.code }).toEqual({ method, path, status: 401, code: "unauthenticated" });
    }
  });

  test("another customer's order is 403 on GET /orders/:id, as on /api/orders/:id; a missing one 404", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const placed = await call("POST", "/orders", { body: { total: 2 }, token: owner.token });
    for (const path of [`/orders/${placed.body.id as string}`, `/api/orders/${placed.body.id as string}`]) {
      expect(await call("GET", path, { token: other.token })).toMatchObject({ status: 403, body: { code: "permission_denied" } });
      expect((await call("GET", path, { token: owner.token })).status).toBe(200);
    }
    expect((await call("GET", "/orders/999999", { token: owner.token })).status).toBe(404);
  });

  test("GET /orders?customerId= of another customer is 403; the lists show only the caller's orders", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const placed = await call("POST", "/orders", { body: { total: 3 }, token: owner.token });
    expect(await call("GET", `/orders?customerId=${owner.userID}`, { token: other.token })).toMatchObject({
      status: 403,
      body: { code: "permission_denied" },
    });
    for (const path of ["/orders", "/orders/recent"]) {
      const res = await call("GET", path, { token: other.token });
      expect(res.status).toBe(200);
      expect(res.body.orders).toEqual([]);
      const mine = await call("GET", path, { token: owner.token });
      expect((mine.body.orders as { id: number }[]).map((o) => o.id)).toEqual([Number(placed.body.id)]);
    }
  });

  test("POST /orders for another customer is 403 and places nothing; without customerId it is the caller's", async () => {
    const me = await signedIn();
    const other = await signedIn();
    const refused = await call("POST", "/orders", { body: { customerId: other.userID, total: 4 }, token: me.token });
    expect(refused).toMatchObject({ status: 403, body: { code: "permission_denied" } });
    expect((await call("GET", "/orders", { token: other.token })).body.orders).toEqual([]);
    const placed = await call("POST", "/orders", { body: { total: 4 }, token: me.token });
    expect(placed).toMatchObject({ status: 200, body: { customerId: me.userID, total: 4 } });
    // The same id in upper case is the same user.
    const upper = await call("POST", "/orders", { body: { customerId: me.userID.toUpperCase(), total: 5 }, token: me.token });
    expect(upper).toMatchObject({ status: 200, body: { customerId: me.userID, total: 5 } });
  });

  test("POST /orders/preview prices a cart; an unknown product is 404", async () => {
    const ok = await call("POST", "/orders/preview", { body: { items: [{ productId: 2, quantity: 3 }] } });
    expect(ok).toMatchObject({ status: 200, body: { total: 14.97, currency: "USD" } });
    expect((await call("POST", "/orders/preview", { body: { items: [{ productId: 77, quantity: 1 }] } })).status).toBe(404);
    expect((await call("POST", "/orders/preview", { body: { items: [{ productId: 1, quantity: 0 }] } })).status).toBe(400);
  });

  test("GET /api/orders/:id: the owner's token reads it, another's is 403, none is 401", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const placed = await call("POST", "/orders", { body: { customerId: owner.userID, total: 5 }, token: owner.token });
    const path = `/api/orders/${placed.body.id as string}`;
    expect(await call("GET", path, { token: owner.token })).toMatchObject({
      status: 200,
      body: { id: Number(placed.body.id), status: "pending", customer_id: owner.userID, items: [], total: 5 },
    });
    expect(await call("GET", path, { token: other.token })).toMatchObject({ status: 403, body: { code: "permission_denied" } });
    expect((await call("GET", path)).status).toBe(401);
    expect((await call("GET", "/api/orders/999999", { token: owner.token })).status).toBe(404);
  });

  test("GET /checkout/summary sums the caller's orders; without a token it is 401", async () => {
    const me = await signedIn();
    await call("POST", "/orders", { body: { total: 0.1 }, token: me.token });
    await call("POST", "/orders", { body: { total: 0.2 }, token: me.token });
    // 0.1 + 0.2 is 0.30000000000000004 in floating point; numeric sums it exactly.
    expect(await call("GET", "/checkout/summary", { token: me.token })).toMatchObject({
      status: 200,
      body: { count: 2, total: 0.3, currency: "USD" },
    });
    expect((await call("GET", "/checkout/summary")).status).toBe(401);
  });
});
