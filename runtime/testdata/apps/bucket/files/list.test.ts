import { APIError, ErrCode } from "encore.dev/api";
import { describe, expect, test } from "vitest";
import { uploads } from "./bucket";
import { list, uploadMany } from "./list";

const text = (s: string) => Buffer.from(s).toString("base64");

describe("listing and batches", () => {
  test("a batch stores every file, and the listing names them with the base URL their public URLs start with", async () => {
    expect(await uploadMany({ files: [{ name: "batch/a.txt", data: text("a") }, { name: "batch/b.txt", data: text("b") }] })).toEqual({ stored: 2 });
    const listing = await list();
    expect(listing.names).toEqual(expect.arrayContaining(["batch/a.txt", "batch/b.txt"]));
    expect(uploads.publicUrl("batch/a.txt")).toBe(`${listing.baseUrl}batch/a.txt`);
  });

  test("a file without a name is refused, and the batch stops there", async () => {
    const failure = await uploadMany({ files: [{ name: "batch/first.txt", data: text("1") }, { name: "", data: text("2") }] }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(APIError);
    expect((failure as APIError).code).toBe(ErrCode.InvalidArgument);
    expect((failure as APIError).message).toMatch(/^file 2 was not stored/);
    expect(await uploads.exists("batch/first.txt")).toBe(true);
  });
});
