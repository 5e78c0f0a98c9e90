import { Bucket } from "encore.dev/storage/objects";

export const second = new Bucket("files");
