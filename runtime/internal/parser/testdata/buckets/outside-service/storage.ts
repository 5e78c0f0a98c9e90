import { Bucket } from "encore.dev/storage/objects";

export const stray = new Bucket("stray");
