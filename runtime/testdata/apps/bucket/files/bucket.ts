import { Bucket } from "encore.dev/storage/objects";

// Public: every object has a URL (publicUrl) that anyone can open without asking this service.
export const uploads = new Bucket("uploads", { public: true, versioned: false });

export interface StoredFile {
  name: string;
  size: number;
  contentType?: string;
  /** Where a browser can fetch the file directly from the bucket. */
  url: string;
}
