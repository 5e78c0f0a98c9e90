import { Bucket } from "encore.dev/storage/objects";

export const uploads = new Bucket("uploads");
export const other = Bucket.named("downloads");
