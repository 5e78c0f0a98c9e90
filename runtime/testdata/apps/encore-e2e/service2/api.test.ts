import { describe, expect, test } from "vitest";
import { testApiError, testInputValidation } from "./api";

// Called as functions, the errors are the APIErrors thrown: the cause is kept as `cause`,
// and only the answer over HTTP puts its message after the error's.
describe("service2's errors", () => {
  test.each([
    ["no-details-no-cause", undefined, undefined],
    ["with-details-no-cause", { a: "detail" }, undefined],
    ["no-details-with-cause", undefined, "this is the cause"],
    ["with-details-with-cause", { a: "detail" }, "this is the cause"],
  ])("%s", async (variant, details, cause) => {
    const err = await testApiError({ variant }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "canceled", message: "the error", details });
    expect((err as Error).cause === undefined ? undefined : ((err as Error).cause as Error).message).toBe(cause);
  });

  test("any other variant answers", async () => {
    expect(await testApiError({ variant: "none" })).toEqual({ message: "Hello there" });
  });

  test("a valid message is processed", async () => {
    expect(await testInputValidation({ message: "Hello world", recipient: "test@example.com" })).toEqual({ message: "Message processed" });
  });
});
