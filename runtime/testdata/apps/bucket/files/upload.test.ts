import { describe, expect, test } from "vitest";
import { uploads } from "./bucket";
import { info, upload } from "./upload";

const text = (s: string) => Buffer.from(s).toString("base64");

describe("uploading files", () => {
  test("the stored object holds exactly the bytes that were sent", async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const stored = await upload({ name: "bytes.bin", data: bytes.toString("base64"), contentType: "application/octet-stream" });
    expect(stored).toMatchObject({ name: "bytes.bin", size: 5, contentType: "application/octet-stream" });
    expect(await uploads.download("bytes.bin")).toEqual(bytes);
  });

  test("the answer carries the bucket's public URL for the file", async () => {
    const stored = await upload({ name: "hello.txt", data: text("hello"), contentType: "text/plain" });
    expect(stored.url).toBe(uploads.publicUrl("hello.txt"));
    expect(stored.url).toMatch(/\/hello\.txt$/);
  });

  test("uploading under the same name replaces the file", async () => {
    await upload({ name: "notes.txt", data: text("first") });
    await upload({ name: "notes.txt", data: text("second, longer") });
    expect((await uploads.download("notes.txt")).toString()).toBe("second, longer");
    expect((await info({ name: "notes.txt" })).size).toBe(14);
  });

  test("data that is not base64 is an invalid argument and stores nothing", async () => {
    await expect(upload({ name: "bad.txt", data: "not base64!" })).rejects.toMatchObject({ code: "invalid_argument" });
    expect(await uploads.exists("bad.txt")).toBe(false);
  });

  test("info on a file never uploaded is not found", async () => {
    await expect(info({ name: "missing.txt" })).rejects.toMatchObject({ code: "not_found" });
  });
});
