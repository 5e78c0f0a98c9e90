import { describe, expect, test } from "vitest";
import { record } from "./readings";
import { getRollup, rollup } from "./rollup";

describe("the rollup cron job's endpoint", () => {
  test("summarises each sensor's readings: count, average and maximum", async () => {
    await record({ sensor: "greenhouse", value: 18 });
    await record({ sensor: "greenhouse", value: 24 });
    await record({ sensor: "cellar", value: 11 });
    const { sensors } = await rollup();
    expect(sensors).toBeGreaterThanOrEqual(2);
    expect(await getRollup({ sensor: "greenhouse" })).toEqual({ sensor: "greenhouse", readings: 2, average: 21, maximum: 24 });
    expect(await getRollup({ sensor: "cellar" })).toEqual({ sensor: "cellar", readings: 1, average: 11, maximum: 11 });
  });

  test("a second run recomputes rather than adding the same readings again", async () => {
    await record({ sensor: "attic", value: 30 });
    await rollup();
    await rollup();
    expect((await getRollup({ sensor: "attic" })).readings).toBe(1);
  });

  test("readings after a run show up at the next run", async () => {
    await record({ sensor: "porch", value: 5 });
    await rollup();
    await record({ sensor: "porch", value: 15 });
    expect((await getRollup({ sensor: "porch" })).readings).toBe(1);
    await rollup();
    expect(await getRollup({ sensor: "porch" })).toMatchObject({ readings: 2, average: 10, maximum: 15 });
  });

  test("a sensor never rolled up is not found", async () => {
    await expect(getRollup({ sensor: "nowhere" })).rejects.toMatchObject({ code: "not_found" });
  });
});
