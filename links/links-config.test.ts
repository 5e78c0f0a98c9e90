import { expect, test } from "vitest";
import { parseLinksConfig } from "./links-config";

test("defaults: no QR codes, anonymous shortens allowed, no trusted proxy", () => {
  expect(parseLinksConfig({})).toEqual({ qrCodes: false, requireLoginToShorten: false, trustProxy: false });
});

test("QR_CODES=on turns the QR-code extension on; REQUIRE_LOGIN_TO_SHORTEN=on asks for sign-in", () => {
  expect(parseLinksConfig({ QR_CODES: "on" }).qrCodes).toBe(true);
  expect(parseLinksConfig({ QR_CODES: "Off" }).qrCodes).toBe(false);
  expect(parseLinksConfig({ REQUIRE_LOGIN_TO_SHORTEN: "on" }).requireLoginToShorten).toBe(true);
  expect(parseLinksConfig({ TRUST_PROXY: "on" }).trustProxy).toBe(true);
});

test.each([
  ["QR_CODES", "yes please"],
  ["REQUIRE_LOGIN_TO_SHORTEN", "1"],
  ["TRUST_PROXY", "yes"],
])("a bad %s (%s) is an error naming it", (name, value) => {
  expect(() => parseLinksConfig({ [name]: value })).toThrowError(new RegExp(`^invalid configuration: ${name} `));
});
