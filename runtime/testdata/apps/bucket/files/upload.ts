import { api, APIError } from "encore.dev/api";
import type { MaxLen, MinLen } from "encore.dev/validate";
import { uploads, type StoredFile } from "./bucket";

export interface UploadRequest {
  name: string & MinLen<1> & MaxLen<200>;
  /** The file's bytes, base64-encoded, as JSON can only carry text. */
  data: string;
  contentType?: string;
}

/** Stores a file sent as base64 JSON, replacing any file of the same name. */
export const upload = api(
  { expose: true, method: "POST", path: "/files/:name" },
  async ({ name, data, contentType }: UploadRequest): Promise<StoredFile> => {
    // Buffer.from silently skips characters that are not base64: check, or a typo stores garbage.
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 !== 0) {
      throw APIError.invalidArgument("data must be base64");
    }
    const attrs = await uploads.upload(name, Buffer.from(data, "base64"), { contentType });
    return { name, size: attrs.size, contentType: attrs.contentType, url: uploads.publicUrl(name) };
  },
);

/** A stored file's size, type and public URL. */
export const info = api(
  { expose: true, method: "GET", path: "/files/:name/info" },
  async ({ name }: { name: string }): Promise<StoredFile> => {
    if (!(await uploads.exists(name))) throw APIError.notFound(`file ${name} not found`);
    const attrs = await uploads.attrs(name);
    return { name, size: attrs.size, contentType: attrs.contentType, url: uploads.publicUrl(name) };
  },
);
