import { expect, test } from "vitest";
import { parseWebhooksConfig } from "./webhooks-config";

test("defaults: private targets refused, 5 s per attempt, disabled after 15 failures in a row", () => {
  expect(parseWebhooksConfig({})).toEqual({ allowPrivateTargets: false, timeoutMs: 5000, disableAfterFailures: 15 });
});

test("each variable is read and checked, its name in the error", () => {
  expect(parseWebhooksConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "on", WEBHOOK_TIMEOUT_SECONDS: "2", WEBHOOK_DISABLE_AFTER_FAILURES: "3" })).toEqual({
    allowPrivateTargets: true,
    timeoutMs: 2000,
    disableAfterFailures: 3,
  });
  expect(() => parseWebhooksConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "yes" })).toThrow(/WEBHOOK_ALLOW_PRIVATE_TARGETS/);
  expect(() => parseWebhooksConfig({ WEBHOOK_TIMEOUT_SECONDS: "31" })).toThrow(/WEBHOOK_TIMEOUT_SECONDS/);
  expect(() => parseWebhooksConfig({ WEBHOOK_DISABLE_AFTER_FAILURES: "0" })).toThrow(/WEBHOOK_DISABLE_AFTER_FAILURES/);
});
