import { describe, expect, test } from "vitest";
import { parseRunArgs } from "./run-args.ts";

describe("run's flags", () => {
  test("the dashboard is on port 9400 unless told otherwise", () => {
    expect(parseRunArgs([])).toEqual({ dashboardPort: 9400 });
    expect(parseRunArgs(["--dashboard-port", "9500"])).toEqual({ dashboardPort: 9500 });
    expect(parseRunArgs(["--dashboard-port=0"])).toEqual({ dashboardPort: 0 });
    expect(parseRunArgs(["--no-dashboard"])).toEqual({ dashboardPort: null });
    expect(parseRunArgs(["--dashboard-port", "9500", "--no-dashboard"])).toEqual({ dashboardPort: null });
  });

  test("a port that is not an integer from 0 to 65535 is refused, naming the flag", () => {
    for (const bad of ["65536", "-1", "9.5", "abc", "", "0x10", "123456"]) {
      expect(parseRunArgs([`--dashboard-port=${bad}`])).toEqual({ error: `--dashboard-port must be an integer from 0 to 65535, got "${bad}"` });
    }
    expect(parseRunArgs(["--dashboard-port"])).toEqual({ error: "--dashboard-port needs a port number" });
    expect(parseRunArgs(["--watch"])).toEqual({ error: 'unknown argument "--watch"' });
  });
});
