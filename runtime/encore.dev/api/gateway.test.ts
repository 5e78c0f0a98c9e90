import { describe, expect, test } from "vitest";
import { declaredAuthHandler } from "../../internal/registry/gateway.ts";
import { authHandler } from "../auth/mod.ts";
import { Gateway } from "./gateway.ts";

describe("new Gateway", () => {
  test("hands the runtime its auth handler, exported or not, as Encore's Gateway does", () => {
    const handler = authHandler<{ token: string }, { userID: string }>(async ({ token }) => ({ userID: token }));
    expect(declaredAuthHandler()).toBeUndefined();
    new Gateway({ authHandler: handler });
    expect(declaredAuthHandler()).toBe(handler);
  });
});
