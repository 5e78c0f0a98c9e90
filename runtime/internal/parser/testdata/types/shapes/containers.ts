import { api } from "encore.dev/api";

interface Point {
  x: number;
  y: number;
}

interface Labelled {
  label: string;
}

export interface Containers {
  list: string[];
  generic: Array<number>;
  frozen: readonly boolean[];
  points: Point[];
  nested: { inner: { deep: string } };
  counts: Record<string, number>;
  loose: Record<string, any>;
  indexed: { [key: string]: Point };
  both: Point & Labelled;
  nullablePoint: Point | null;
  choice: Point | Labelled;
  keyed: Record<"a" | "b", string>;
  dates: Date[];
  obj: object;
}

export const containers = api({ method: "POST", path: "/containers" }, async (c: Containers): Promise<{ ok: boolean }> => ({ ok: !!c }));
