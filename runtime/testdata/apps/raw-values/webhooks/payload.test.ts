import { describe, expect, test } from "vitest";
import { payloadOf } from "./payload";

describe("payloadOf", () => {
  test("reads a JSON object from text", async () => {
    expect(await payloadOf('{"action":"opened","number":7}')).toEqual({ action: "opened", number: 7 });
  });

  test("refuses text that is not JSON", async () => {
    await expect(payloadOf("not json")).rejects.toMatchObject({ code: "invalid_argument", message: "the payload is not JSON" });
  });

  test("refuses JSON that is not an object", async () => {
    await expect(payloadOf("[1, 2]")).rejects.toMatchObject({ code: "invalid_argument" });
  });
});
