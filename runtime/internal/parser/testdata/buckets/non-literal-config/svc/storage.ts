import { Bucket } from "encore.dev/storage/objects";

const isPublic = process.env.PUBLIC === "1";
export const uploads = new Bucket("uploads", { public: isPublic });
