import { describe, expect, test } from "vitest";
import { parseMailConfig } from "./mail-config";

describe("the mail settings", () => {
  test("unset: no SMTP server, and a no-reply sender at the public host", () => {
    expect(parseMailConfig({}, "sho.rt")).toEqual({ smtpUrl: null, from: "no-reply@sho.rt" });
  });

  test("SMTP_URL smtp:// or smtps://, with credentials; MAIL_FROM with or without a display name", () => {
    expect(parseMailConfig({ SMTP_URL: "smtps://u:p@mail.example.com:465" }, "sho.rt").smtpUrl).toBe("smtps://u:p@mail.example.com:465");
    expect(parseMailConfig({ SMTP_URL: "smtp://mail.example.com", MAIL_FROM: "Links <links@example.com>" }, "sho.rt").from).toBe("Links <links@example.com>");
  });

  test.each([
    [{ SMTP_URL: "not a url" }, /SMTP_URL must be a URL/],
    [{ SMTP_URL: "mail.example.com:25" }, /SMTP_URL must start with/],
    [{ SMTP_URL: "http://mail.example.com" }, /SMTP_URL must start with smtp:\/\/ .* or smtps:\/\//],
    [{ MAIL_FROM: "not an address" }, /MAIL_FROM must be an address/],
    [{ MAIL_FROM: "X\r\nBcc: a@b.example <no-reply@x.example>" }, /MAIL_FROM must be an address/],
  ])("%j is refused, naming the variable", (env, message) => {
    expect(() => parseMailConfig(env, "sho.rt")).toThrow(message);
  });

  test("a refused SMTP_URL is not echoed with its password", () => {
    expect(() => parseMailConfig({ SMTP_URL: "//user:secret@host" }, "sho.rt")).toThrow(/^(?!.*secret)/s);
  });
});
