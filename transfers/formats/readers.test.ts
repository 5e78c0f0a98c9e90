import { expect, test } from "vitest";
import { csvRecords } from "./csv-records";
import { jsonRecords } from "./json-records";
import { FileError, type SourceRecord } from "./records";

/** The text in chunks of `size` bytes, cut anywhere: inside strings, escapes and multi-byte characters. */
async function* chunked(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function all(records: AsyncGenerator<SourceRecord>): Promise<SourceRecord[]> {
  const out: SourceRecord[] = [];
  for await (const r of records) out.push(r);
  return out;
}

const kutt = `{"limit": 1, "data": [\n  {"target": "https://a.example/}]\\"é", "tags": ["x", "y"]},\n  5,\n  {"nested": {"data": [1]}}, "text", {bad\n]}`;

test.each([1, 2, 7, 1000])("a list's elements with the lines they start on, whatever the chunks (%i bytes)", async (size) => {
  expect(await all(jsonRecords(chunked(kutt, size), ["data"]))).toEqual([
    { line: 2, fields: { target: 'https://a.example/}]"é', tags: ["x", "y"] } },
    { line: 3, error: "each element of the list must be an object" },
    { line: 4, fields: { nested: { data: [1] } } },
    { line: 4, error: "each element of the list must be an object" },
    { line: 4, error: "not valid JSON" },
    { line: 5, error: "each element of the list must be an object" },
  ]);
});

test("a file that is the list; an empty list has no records; a file without the list is a FileError", async () => {
  expect(await all(jsonRecords(chunked('[\n{"a":1},\n{"b":2}\n]', 3), []))).toEqual([
    { line: 2, fields: { a: 1 } },
    { line: 3, fields: { b: 2 } },
  ]);
  expect(await all(jsonRecords(chunked('{"links": []}', 4), ["links"]))).toEqual([]);
  await expect(all(jsonRecords(chunked('{"data": []}', 4), ["links"]))).rejects.toThrowError(FileError);
});

test("CSV records in line order, a malformed line among them, a header without the required column a FileError", async () => {
  const csv = 'url,Alias\nhttps://a.example,x\n"https://b,c",y,z\nhttps://c.example,"q\nw"\nhttps://d.example\n';
  for (const size of [1, 5, 100]) {
    expect(await all(csvRecords(chunked(csv, size), ["url"]))).toEqual([
      { line: 2, fields: { url: "https://a.example", alias: "x" } },
      { line: 3, error: expect.stringContaining("not a well-formed CSV line") },
      { line: 5, fields: { url: "https://c.example", alias: "q\nw" } },
      { line: 6, fields: { url: "https://d.example" } },
    ]);
  }
  await expect(all(csvRecords(chunked("link,name\n1,2\n", 4), ["url"]))).rejects.toThrowError(/among them url/);
});
