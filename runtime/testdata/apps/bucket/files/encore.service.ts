import { Service } from "encore.dev/service";

// The files service stores uploads in a public bucket and serves them back.
export default new Service("files");
