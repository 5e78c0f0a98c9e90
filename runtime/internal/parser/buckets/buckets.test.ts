import { describe, expect, it } from "vitest";
import { renderHandlers } from "../../codegen/render.ts";
import { fixture, lineOf, parseError } from "../../../test/parser-fixtures.ts";
import { parseApp } from "../mod.ts";

describe("buckets", () => {
  const meta = parseApp(fixture("buckets/valid"));

  it("reads each `new Bucket` with its settings (false unless said), sorted by name; Bucket.named declares nothing", () => {
    expect(meta.buckets).toEqual([
      { name: "archive", service: "svc", public: false, versioned: true, usedBy: ["svc"], declaredIn: { file: "svc/storage.ts", line: 6 } },
      { name: "avatars", service: "svc", public: true, versioned: false, usedBy: ["svc"], declaredIn: { file: "svc/storage.ts", line: 4 } },
      { name: "scratch", service: "svc", public: false, versioned: false, usedBy: ["svc"], declaredIn: { file: "svc/storage.ts", line: 8 } },
    ]);
  });

  it("the handler map imports the files that declare buckets, so their declarations run at boot", () => {
    expect(renderHandlers(meta).content).toContain('import "../../svc/storage";');
  });
});

interface Case {
  readonly fixture: string;
  /** Text on the line the error must point at, in `file` (svc/storage.ts unless given). */
  readonly at: string;
  readonly file?: string;
  readonly message: string;
}

const CASES: readonly Case[] = [
  {
    fixture: "duplicate-name",
    at: 'new Bucket("files")',
    message: 'bucket "files" is already declared at svc/more.ts:3; use Bucket.named("files") to refer to it',
  },
  { fixture: "outside-service", file: "storage.ts", at: 'new Bucket("stray")', message: 'bucket "stray" must be declared inside a service' },
  { fixture: "non-literal-name", at: "new Bucket(name)", message: "the name passed to new Bucket(...) must be a string literal" },
  {
    fixture: "bad-name",
    at: '"User_Uploads"',
    message: 'invalid bucket name "User_Uploads": use lower-case letters, digits and "-", starting with a letter and not ending with "-", at most 63 characters',
  },
  {
    fixture: "non-literal-config",
    at: "{ public: isPublic }",
    message: 'the config of bucket "uploads" must be an object literal of true/false values',
  },
  { fixture: "unknown-setting", at: "cdn: true", message: 'unknown setting "cdn" of bucket "uploads" (known: public, versioned)' },
  {
    fixture: "named-unknown",
    at: 'Bucket.named("downloads")',
    message: 'Bucket.named("downloads") refers to a bucket that no `new Bucket("downloads")` declares',
  },
];

describe("bucket declarations the runtime cannot serve faithfully are refused, naming the rule", () => {
  it.each(CASES)("$fixture", (testCase) => {
    const root = fixture(`buckets/${testCase.fixture}`);
    const file = testCase.file ?? "svc/storage.ts";
    const line = lineOf(root, file, testCase.at);
    expect(parseError(root).message).toBe(`${file}:${line}: ${testCase.message}`);
  });
});
