import { StringDecoder } from "node:string_decoder";
import { FileError, type SourceRecord } from "./records";

/** One element of the list larger than this is refused, rather than held. */
const maxElementChars = 256 * 1024;

interface Container {
  readonly type: "object" | "array";
  /** In an object: the key of the value being read, once read. */
  key?: string;
  /** In an object: whether the next string is a key. */
  expectKey?: boolean;
}

/**
 * The elements of one list in a JSON file, read as its bytes arrive, each parsed on its
 * own: the list at `path` (object keys from the top; [] for a file that is the list), so a
 * file of any size is read one element at a time. Each element's line is where it starts.
 * An element that is not a JSON object, or not valid JSON, is that record's error. A file
 * without the list is a FileError.
 */
export async function* jsonRecords(chunks: AsyncIterable<Buffer>, path: readonly string[]): AsyncGenerator<SourceRecord> {
  const decoder = new StringDecoder("utf8");
  const stack: Container[] = [];
  let line = 1;
  let inString = false;
  let escaped = false;
  let stringText = "";
  let found = false;
  /** Inside a string, number or literal that is an element of the list. */
  let inScalar = false;
  /** The element being captured: its text, its line and the depth it started at. */
  let element: { text: string; line: number; depth: number } | null = null;

  const atList = () => {
    if (stack.length !== path.length + 1 || stack[stack.length - 1]!.type !== "array") return false;
    return path.every((key, i) => stack[i]!.type === "object" && stack[i]!.key === key);
  };

  for await (const chunk of chunks) {
    const text = decoder.write(chunk);
    const records: SourceRecord[] = [];
    let start = element === null ? -1 : 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (c === "\n") line++;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === "\\") escaped = true;
        else if (c === '"') {
          inString = false;
          const top = stack[stack.length - 1];
          if (element === null && top?.type === "object" && top.expectKey) {
            top.key = stringText;
            top.expectKey = false;
          }
        } else if (element === null && stringText.length < 1024) stringText += c;
        continue;
      }
      if (element === null && !inScalar && c !== "{" && c !== "[" && c !== "," && c !== "]" && !/\s/.test(c) && atList()) {
        // A string, number or literal in the list: not a link.
        found = true;
        inScalar = true;
        records.push({ line, error: "each element of the list must be an object" });
      }
      if (c === '"') {
        inString = true;
        stringText = "";
      } else if (c === "{" || c === "[") {
        if (element === null && atList()) {
          found = true;
          element = { text: "", line, depth: stack.length };
          start = i;
        }
        stack.push(c === "{" ? { type: "object", expectKey: true } : { type: "array" });
        if (element === null && atList()) found = true;
      } else if (c === "}" || c === "]") {
        inScalar = false;
        stack.pop();
        if (element !== null && stack.length === element.depth) {
          element.text += text.slice(start, i + 1);
          records.push(parsed(element.text, element.line));
          element = null;
          start = -1;
        }
      } else if (c === ",") {
        inScalar = false;
        const top = stack[stack.length - 1];
        if (top?.type === "object") top.expectKey = true;
      }
      if (element !== null && element.text.length + (i - start) > maxElementChars) {
        throw new FileError(`the element starting at line ${element.line} is longer than ${maxElementChars} characters`);
      }
    }
    if (element !== null) {
      element.text += text.slice(start);
    }
    yield* records;
  }
  if (element !== null) yield { line: element.line, error: "the file ends inside this element" };
  if (!found) {
    throw new FileError(path.length === 0 ? "the file must be a JSON list of links" : `the file must be JSON with the links in its "${path.join(".")}" list`);
  }
}

function parsed(text: string, line: number): SourceRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { line, error: "not valid JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { line, error: "each element of the list must be an object" };
  return { line, fields: value as Record<string, unknown> };
}
