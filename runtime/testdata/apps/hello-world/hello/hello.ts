import { api } from "encore.dev/api";

export interface Greeting {
  message: string;
}

/** Greets the caller by the name in the path. */
export const get = api(
  { expose: true, method: "GET", path: "/hello/:name" },
  async ({ name }: { name: string }): Promise<Greeting> => {
    return { message: `Hello ${name}!` };
  },
);
