import { api } from "encore.dev/api";

export enum Color {
  Red = "red",
  Green = "green",
}

export enum Level {
  Low,
  High,
}

export interface Primitives {
  /** A plain string. */
  text: string;
  count: number;
  flag: boolean;
  literal: "fixed";
  size: "s" | "m" | "l";
  odd: 1 | 3 | 5;
  color: Color;
  level: Level;
  maybe?: string;
  orUndefined: number | undefined;
  nullableText: string | null;
  nullableSize: "s" | "m" | null;
  mixed: string | number;
  when: Date;
  anything: any;
  unknownValue: unknown;
  template: `id-${string}`;
  yes: true;
}

export const primitives = api({ expose: true, method: "POST", path: "/primitives" }, async (p: Primitives): Promise<Primitives> => p);
