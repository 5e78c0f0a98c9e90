import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readAppId } from "./app-file.ts";
import { ParseError } from "./errors.ts";

let dir: string;
const withAppFile = (text: string | null): string => {
  dir = mkdtempSync(path.join(tmpdir(), "app-file-"));
  if (text !== null) writeFileSync(path.join(dir, "encore.app"), text);
  return dir;
};

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the app's ID", () => {
  it("is encore.app's id, which may carry comments and a trailing comma as Encore writes it", () => {
    expect(readAppId(withAppFile('// Linked to Encore Cloud\n{\n  "id": "shortener-x7k2",\n  "lang": "typescript",\n}\n'))).toBe("shortener-x7k2");
  });

  it('is "" when the app is not linked or has no encore.app', () => {
    expect(readAppId(withAppFile('{"id": "", "lang": "typescript"}'))).toBe("");
    expect(readAppId(withAppFile('{"lang": "typescript"}'))).toBe("");
    expect(readAppId(withAppFile(null))).toBe("");
  });

  it("refuses an id that is not a string, naming the file", () => {
    const error = (() => {
      try {
        readAppId(withAppFile('{"id": 42}'));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).message).toBe('encore.app: "id" must be a string, got 42');
  });
});
