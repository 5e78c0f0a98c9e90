import { api, type Header, type Query } from "encore.dev/api";

type RequestId = Header<"X-Request-Id">;

interface SearchParams {
  term: string;
  limit?: number;
  tags: string[];
  since: Date;
  kind: "a" | "b";
}

export const search = api({ expose: true, method: "GET", path: "/search" }, async (p: SearchParams): Promise<{ n: number }> => ({
  n: p.term.length,
}));

interface UpdateParams {
  id: number;
  title: string;
  token: Header<"Authorization">;
  count: Header<number, "X-Count">;
  plain: Header;
  requestId: RequestId;
  dryRun?: Query<boolean, "dry_run">;
  q: Query<"q">;
  pages: Query<number[]>;
}

export const update = api({ expose: true, method: "PUT", path: "/items/:id" }, async (p: UpdateParams): Promise<void> => {
  void p;
});

export const remove = api({ method: "DELETE", path: "/items/:id/:version" }, async (p: { id: string; version: number; reason?: string }): Promise<void> => {
  void p;
});

export const anyMethod = api({ method: "*", path: "/any/*rest" }, async (p: { rest: string; note: string }): Promise<void> => {
  void p;
});

export const mixed = api({ method: ["GET", "POST"], path: "/mixed" }, async (p: { a: string }): Promise<void> => {
  void p;
});

export const defaults = api({}, async (p: { a: string }): Promise<{ b: string }> => ({ b: p.a }));

export const tuned = api(
  { method: "PATCH", path: "/tuned", bodyLimit: 10 * 1024 * 1024, tags: ["x", "y"], sensitive: true, auth: true },
  async (): Promise<void> => {},
);

export const unlimited = api({ path: "/unlimited", bodyLimit: null }, async (): Promise<void> => {});
