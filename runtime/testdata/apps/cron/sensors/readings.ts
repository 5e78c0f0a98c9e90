import { api } from "encore.dev/api";
import type { MinLen } from "encore.dev/validate";
import { db } from "./db";

export interface Reading {
  sensor: string & MinLen<1>;
  value: number;
}

/** Records one measurement of a sensor. */
export const record = api(
  { expose: true, method: "POST", path: "/readings" },
  async ({ sensor, value }: Reading): Promise<void> => {
    await db.exec`INSERT INTO readings (sensor, value) VALUES (${sensor}, ${value})`;
  },
);
