import { and, asc, eq, gt } from "drizzle-orm";
import { api, APIError } from "encore.dev/api";
import type { Max, Min, MinLen } from "encore.dev/validate";
import { orm } from "./database";
import { tasks } from "./schema";

export interface Task {
  id: number;
  title: string;
  done: boolean;
}

const columns = { id: tasks.id, title: tasks.title, done: tasks.done };

/** Adds an open task. */
export const create = api(
  { expose: true, method: "POST", path: "/tasks" },
  async ({ title }: { title: string & MinLen<1> }): Promise<Task> => {
    const [task] = await orm.insert(tasks).values({ title }).returning(columns);
    return task!;
  },
);

/** One task by id. */
export const get = api(
  { expose: true, method: "GET", path: "/tasks/:id" },
  async ({ id }: { id: number }): Promise<Task> => {
    const [task] = await orm.select(columns).from(tasks).where(eq(tasks.id, id));
    if (!task) throw APIError.notFound(`task ${id} not found`);
    return task;
  },
);

/** Marks a task done or open again. */
export const setDone = api(
  { expose: true, method: "PATCH", path: "/tasks/:id" },
  async ({ id, done }: { id: number; done: boolean }): Promise<Task> => {
    const [task] = await orm.update(tasks).set({ done }).where(eq(tasks.id, id)).returning(columns);
    if (!task) throw APIError.notFound(`task ${id} not found`);
    return task;
  },
);

export interface ListParams {
  /** Only tasks in this state; both when absent. */
  done?: boolean;
  /** Tasks with ids above this one: the page after a page that ended with it. */
  after?: number;
  limit?: number & Min<1> & Max<100>;
}

/** Tasks in id order, a page at a time. */
export const list = api(
  { expose: true, method: "GET", path: "/tasks" },
  async ({ done, after = 0, limit = 50 }: ListParams): Promise<{ tasks: Task[] }> => {
    const where = and(gt(tasks.id, after), done === undefined ? undefined : eq(tasks.done, done));
    const rows = await orm.select(columns).from(tasks).where(where).orderBy(asc(tasks.id)).limit(limit);
    return { tasks: rows };
  },
);
