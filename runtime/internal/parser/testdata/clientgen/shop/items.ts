import { api, APIError, type Header, type Query } from "encore.dev/api";
import type { ImportedRequest, ImportedResponse } from "../common-stuff/types";
import type { Color, Item, Page } from "./types";

// The fixture's shop, in memory: the client tests serve this app.
const items = new Map<number, Item>([
  [1, { id: 1, name: "lamp", tags: ["home"], created: new Date("2024-01-02T03:04:05Z"), status: "open", owner: null }],
]);

interface GetItemRequest {
  id: number;
  verbose?: boolean;
  trace?: Header<"X-Trace">;
}

// Get returns one item.
export const get = api({ expose: true, method: "GET", path: "/items/:id" }, async (req: GetItemRequest): Promise<Item> => {
  const item = items.get(req.id);
  if (!item) throw APIError.notFound("item not found");
  return req.verbose && req.trace ? { ...item, tags: [...item.tags, `trace:${req.trace}`] } : item;
});

/** The fields of a new item. */
interface CreateItemRequest {
  name: string;
  tags: string[];
  color: Color;
  idempotencyKey: Header<"Idempotency-Key">;
  dryRun?: Query<boolean, "dry_run">;
  when?: Date;
}

/**
 * Create adds an item.
 * It answers the new item.
 */
export const create = api({ expose: true, method: "POST", path: "/items" }, async (req: CreateItemRequest): Promise<Item> => {
  const item: Item = {
    id: items.size + 1,
    name: req.name,
    tags: [...req.tags, `key:${req.idempotencyKey}`],
    created: req.when ?? new Date(),
    status: "open",
    color: req.color,
    owner: null,
  };
  if (!req.dryRun) items.set(item.id, item);
  return item;
});

export const rename = api(
  { expose: true, method: "PUT", path: "/items/:id/name", tags: ["admin"] },
  async (req: { id: number; name: string }): Promise<void> => {
    const item = items.get(req.id);
    if (!item) throw APIError.notFound("item not found");
    items.set(req.id, { ...item, name: req.name });
  },
);

interface RemoveRequest {
  id: number;
}

export const remove = api({ expose: true, method: "DELETE", path: "/items/:id", tags: ["admin"] }, async (req: RemoveRequest) => {
  items.delete(req.id);
});

export const search = api(
  { expose: true, method: "GET", path: "/search" },
  async (req: { q: string; page?: number; tags?: string[]; since?: Date }): Promise<Page<Item>> => {
    const found = [...items.values()].filter(
      (item) => item.name.includes(req.q) && (req.tags ?? []).every((tag) => item.tags.includes(tag)) && (!req.since || item.created >= req.since),
    );
    return { items: found.slice(((req.page ?? 1) - 1) * 10), total: found.length };
  },
);

export const file = api(
  { expose: true, method: "GET", path: "/files/*path" },
  async (req: { path: string }): Promise<{ size: number }> => ({ size: req.path.length }),
);

export const imported = api({ expose: true, method: "POST", path: "/imported" }, async (req: ImportedRequest): Promise<ImportedResponse> => ({
  message: req.name,
}));

export const ping = api({ expose: true, method: "GET", path: "/ping" }, async () => {});

// Internal: never in a client.
export const restock = api({ expose: false }, async (): Promise<void> => {});

export const hook = api.raw({ expose: true, method: ["POST", "PUT"], path: "/hook/:id" }, (req, res) => {
  let body = "";
  req.on("data", (chunk: Buffer) => (body += chunk.toString()));
  req.on("end", () => {
    res.setHeader("content-type", "text/plain");
    res.end(`${req.method} ${req.url} ${body}`);
  });
});
