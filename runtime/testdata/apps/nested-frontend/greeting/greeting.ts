import { api, type Query } from "encore.dev/api";

export interface Greeting {
  message: string;
}

/** The greeting the page shows, for the name in the query string. */
export const greet = api(
  { expose: true, method: "GET", path: "/api/greeting" },
  async ({ name }: { name?: Query<string> }): Promise<Greeting> => {
    return { message: `Hello, ${name ?? "stranger"}!` };
  },
);
