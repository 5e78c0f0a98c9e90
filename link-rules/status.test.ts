import { describe, expect, test } from "vitest";
import { linkStatus, unavailableMessage, type LinkState } from "./status";

const now = Date.parse("2030-06-01T12:00:00Z");
const active: LinkState = { expiresAt: null, maxClicks: null, clicks: 0, deletedAt: null, disabledAt: null, startsAt: null };
const past = new Date(now - 1);
const at = new Date(now);

describe("linkStatus", () => {
  test.each([
    [{}, "active"],
    [{ expiresAt: new Date(now + 1) }, "active"],
    [{ expiresAt: at }, "expired"],
    [{ maxClicks: 3, clicks: 2 }, "active"],
    [{ maxClicks: 3, clicks: 3 }, "exhausted"],
    [{ deletedAt: past }, "deleted"],
    [{ disabledAt: past }, "disabled"],
    [{ startsAt: new Date(now + 1) }, "scheduled"],
    [{ startsAt: at }, "active"],
    [{ startsAt: null }, "active"],
  ] as const)("%j is %s", (change, status) => {
    expect(linkStatus({ ...active, ...change }, now)).toBe(status);
  });

  test("deleted, then disabled, then expired, then exhausted, then scheduled", () => {
    const all = { expiresAt: past, maxClicks: 1, clicks: 1, deletedAt: past, disabledAt: past, startsAt: new Date(now + 1) };
    expect(linkStatus(all, now)).toBe("deleted");
    expect(linkStatus({ ...all, deletedAt: null }, now)).toBe("disabled");
    expect(linkStatus({ ...all, deletedAt: null, disabledAt: null }, now)).toBe("expired");
    expect(linkStatus({ ...all, deletedAt: null, disabledAt: null, expiresAt: null }, now)).toBe("exhausted");
    expect(linkStatus({ ...all, deletedAt: null, disabledAt: null, expiresAt: null, maxClicks: null }, now)).toBe("scheduled");
  });
});

test("the messages of GET /:code's 404s", () => {
  expect(unavailableMessage("scheduled")).toBe("link not active yet");
  expect(unavailableMessage("expired")).toBe("link expired");
  expect(unavailableMessage("exhausted")).toBe("link reached its maximum number of clicks");
  expect(unavailableMessage("deleted")).toBe("link deleted");
  expect(unavailableMessage("disabled", "abuse")).toBe("link disabled for abuse");
  expect(unavailableMessage("disabled", "host")).toBe("link disabled for abuse");
  expect(unavailableMessage("disabled", "account")).toBe("link disabled");
});
