import { describe, expect, test } from "vitest";
import { create, get, list, setDone } from "./tasks";

describe("tasks on drizzle", () => {
  test("a new task is open and can be read back", async () => {
    const task = await create({ title: "water the plants" });
    expect(task).toEqual({ id: task.id, title: "water the plants", done: false });
    expect(await get({ id: task.id })).toEqual(task);
  });

  test("marking a task done is kept", async () => {
    const { id } = await create({ title: "post the letter" });
    expect((await setDone({ id, done: true })).done).toBe(true);
    expect((await get({ id })).done).toBe(true);
  });

  test("the done filter and paging select from the tasks in id order", async () => {
    const a = await create({ title: "a" });
    const b = await create({ title: "b" });
    const c = await create({ title: "c" });
    await setDone({ id: b.id, done: true });
    const open = await list({ done: false, after: a.id - 1 });
    expect(open.tasks.map((t) => t.title)).toEqual(["a", "c"]);
    const page = await list({ after: a.id, limit: 1 });
    expect(page.tasks.map((t) => t.id)).toEqual([b.id]);
    expect(c.id).toBeGreaterThan(b.id);
  });

  test("reading or updating an unknown task is not found", async () => {
    await expect(get({ id: 999_999 })).rejects.toMatchObject({ code: "not_found" });
    await expect(setDone({ id: 999_999, done: true })).rejects.toMatchObject({ code: "not_found" });
  });
});
