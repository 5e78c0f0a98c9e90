import { api, APIError } from "encore.dev/api";
import { ObjectsError } from "encore.dev/storage/objects";
import { uploads } from "./bucket";

export interface Listing {
  /** Where every file's public URL starts: a client appends a file's name. */
  baseUrl: string;
  names: string[];
}

/** The stored files' names, and the bucket's public base URL to fetch them from. */
export const list = api(
  { expose: true, method: "GET", path: "/files" },
  async (): Promise<Listing> => {
    const names: string[] = [];
    for await (const entry of uploads.list({})) names.push(entry.name);
    // The empty name gives the base URL itself: Encore joins base and name.
    return { baseUrl: uploads.publicUrl(""), names };
  },
);

export interface Batch {
  /** As a form with several file fields sends them: a field left without a file has an empty name. */
  files: { name: string; data: string; contentType?: string }[];
}

/** Stores several files sent as base64 JSON, in order; one that cannot be stored stops the batch. */
export const uploadMany = api(
  { expose: true, method: "POST", path: "/files" },
  async ({ files }: Batch): Promise<{ stored: number }> => {
    let stored = 0;
    for (const file of files) {
      try {
        await uploads.upload(file.name, Buffer.from(file.data, "base64"), { contentType: file.contentType });
      } catch (err) {
        // The store refuses a name it cannot hold, the empty one included.
        if (err instanceof ObjectsError) throw APIError.invalidArgument(`file ${stored + 1} was not stored: ${err.message}`);
        throw err;
      }
      stored++;
    }
    return { stored };
  },
);
