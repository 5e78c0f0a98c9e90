import { Bucket } from "encore.dev/storage/objects";

export const uploads = new Bucket("User_Uploads");
