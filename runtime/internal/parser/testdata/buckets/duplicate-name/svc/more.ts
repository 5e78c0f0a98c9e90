import { Bucket } from "encore.dev/storage/objects";

export const first = new Bucket("files", { public: true });
