import { Bucket } from "encore.dev/storage/objects";

const name = ["up", "loads"].join("");
export const uploads = new Bucket(name);
