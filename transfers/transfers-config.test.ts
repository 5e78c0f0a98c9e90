import { expect, test } from "vitest";
import { parseTransfersConfig } from "./transfers-config";

test("defaults: 100,000 rows and 50 MiB per import file", () => {
  expect(parseTransfersConfig({})).toEqual({ importMaxRows: 100_000, importMaxBytes: 50 * 1024 * 1024, trustProxy: false });
});

test("IMPORT_MAX_ROWS and IMPORT_MAX_BYTES are read", () => {
  expect(parseTransfersConfig({ IMPORT_MAX_ROWS: "10", IMPORT_MAX_BYTES: "4096" })).toMatchObject({ importMaxRows: 10, importMaxBytes: 4096 });
});

test.each([
  ["IMPORT_MAX_ROWS", "0"],
  ["IMPORT_MAX_ROWS", "many"],
  ["IMPORT_MAX_BYTES", "100"],
])("a bad %s (%s) is an error naming it", (name, value) => {
  expect(() => parseTransfersConfig({ [name]: value })).toThrowError(new RegExp(`^invalid configuration: ${name} `));
});
