import { expect, test } from "vitest";
import { ConsecutiveFailures } from "./consecutive-failures";
import { TooManyRequests } from "./limiter/limiter";

test("a failure's wait runs from when it failed, not from when its attempt began", async () => {
  const failures = new ConsecutiveFailures("test:slow-checks");
  for (let i = 0; i < 3; i++) {
    await failures.begin("pair");
    await failures.failed("pair");
  }
  // The 4th attempt, whose check outlasts the 1 s wait it earns (a password hash on a busy server).
  await failures.begin("pair");
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  await failures.failed("pair");
  const next = await failures.begin("pair").catch((err: unknown) => err);
  expect(next).toBeInstanceOf(TooManyRequests);
  expect((next as TooManyRequests).msBeforeNext).toBeGreaterThan(500);
});
