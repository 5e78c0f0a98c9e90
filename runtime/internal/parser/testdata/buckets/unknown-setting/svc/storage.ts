import { Bucket } from "encore.dev/storage/objects";

// @ts-expect-error -- not a BucketConfig setting
export const uploads = new Bucket("uploads", { public: true, cdn: true });
