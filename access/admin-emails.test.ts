import { describe, expect, test } from "vitest";
import { parseAdminEmails } from "./admin-emails";

describe("ADMIN_EMAILS", () => {
  test("comma-separated emails, trimmed and in lower case; unset, blank or empty entries: nobody", () => {
    expect([...parseAdminEmails({ ADMIN_EMAILS: " Boss@Example.com, ops@example.com ,," })]).toEqual(["boss@example.com", "ops@example.com"]);
    expect(parseAdminEmails({}).size).toBe(0);
    expect(parseAdminEmails({ ADMIN_EMAILS: "  " }).size).toBe(0);
  });

  test.each(["boss", "boss@example.com; ops@example.com", "two words@example.com", `${"a".repeat(250)}@example.com`])(
    "%j is refused, naming the variable",
    (value) => {
      expect(() => parseAdminEmails({ ADMIN_EMAILS: value })).toThrow(/^invalid configuration: ADMIN_EMAILS must be a comma-separated list of emails/);
    },
  );
});
