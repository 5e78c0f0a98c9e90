import { currentRequest, type APICallMeta } from "encore.dev";
import { api, APIError } from "encore.dev/api";
import { pageFor, topicTitle } from "./pages";

/**
 * Every path no other endpoint claims is a page of the site. At "/" the fallback segment
 * is empty and Encore passes no `path`: that is the index.
 */
export const pages = api.raw(
  { expose: true, path: "/!path", method: "GET" },
  async (_req, resp) => {
    const { path } = (currentRequest() as APICallMeta).pathParams;
    const page = pageFor(path ?? "index");
    resp.writeHead(page === undefined ? 404 : 200, { "Content-Type": "text/html; charset=utf-8" });
    resp.end(page ?? "<h1>Not found</h1>");
  },
);

export interface Topic {
  topic: string;
  title: string;
}

/** A docs topic by its path under /docs/; "/docs/" itself, with no topic, is the contents. */
export const docs = api(
  { expose: true, method: "GET", path: "/docs/!topic" },
  async ({ topic }: { topic?: string }): Promise<Topic> => {
    const name = topic ?? "index";
    const title = topicTitle(name);
    if (title === undefined) throw APIError.notFound(`no docs topic ${name}`);
    return { topic: name, title };
  },
);
