import { api } from "encore.dev/api";
import { db } from "./db";

interface Todo {
  id: number;
  title: string;
}

// No encore.service.ts anywhere above: Encore makes this folder the service "todo".
export const list = api({ expose: true, method: "GET", path: "/todos" }, async (): Promise<{ todos: Todo[] }> => {
  const todos = await db.query<Todo>`SELECT id, title FROM todo`;
  const out: Todo[] = [];
  for await (const row of todos) out.push(row);
  return { todos: out };
});
