import * as p from "drizzle-orm/pg-core";

export const tasks = p.pgTable(
  "tasks",
  {
    id: p.serial().primaryKey(),
    title: p.text().notNull(),
    done: p.boolean().notNull().default(false),
    createdAt: p.timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // Listing open tasks is the common query.
  (t) => [p.index("tasks_done_id_idx").on(t.done, t.id)],
);
