import { sql } from "drizzle-orm";
import * as p from "drizzle-orm/pg-core";

// The shop's tables. Migrations are generated from this file:
//   npx drizzle-kit generate --config orders/drizzle.config.ts
// Money is numeric(12,2): drizzle hands it over as a string, and sums are done in SQL.

export const products = p.pgTable(
  "products",
  {
    id: p.serial().primaryKey(),
    name: p.text().notNull(),
    price: p.numeric({ precision: 12, scale: 2 }).notNull(),
    currency: p.text().notNull().default("USD"),
    createdAt: p.timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [p.check("products_price_nonnegative", sql`${t.price} >= 0`)],
);

export const orders = p.pgTable(
  "orders",
  {
    id: p.serial().primaryKey(),
    /** The user id of whoever placed the order (users are UUIDs, so text). */
    customerId: p.text("customer_id").notNull(),
    status: p.text().notNull().default("pending"),
    total: p.numeric({ precision: 12, scale: 2 }).notNull(),
    createdAt: p.timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // GET /orders?customerId= pages by id within one customer.
  (t) => [
    p.index("orders_customer_id_id_idx").on(t.customerId, t.id),
    p.check("orders_total_nonnegative", sql`${t.total} >= 0`),
  ],
);

export const orderItems = p.pgTable(
  "order_items",
  {
    id: p.serial().primaryKey(),
    orderId: p
      .integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    // Nullable: an item keeps its own name and price, so an order outlives a product removed from the shop.
    productId: p.integer("product_id").references(() => products.id, { onDelete: "set null" }),
    name: p.text().notNull(),
    quantity: p.integer().notNull(),
    /** The unit price when the order was placed. */
    price: p.numeric({ precision: 12, scale: 2 }).notNull(),
  },
  (t) => [
    p.index("order_items_order_id_idx").on(t.orderId, t.id),
    p.check("order_items_quantity_positive", sql`${t.quantity} > 0`),
    p.check("order_items_price_nonnegative", sql`${t.price} >= 0`),
  ],
);
