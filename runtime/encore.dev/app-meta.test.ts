import { expect, test } from "vitest";
import { appMeta } from "./app-meta.ts";

test("appMeta() carries encore.app's id: empty, since this app is not linked to Encore Cloud", () => {
  expect(appMeta().appId).toBe("");
  expect(Object.keys(appMeta().deploy.hostedServices).sort()).toEqual(["analytics", "auth", "links", "mail", "moderation", "orders", "transfers", "url", "urlb", "users", "web", "webhooks", "workspaces"]);
});
