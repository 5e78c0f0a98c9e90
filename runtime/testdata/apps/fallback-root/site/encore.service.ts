import { Service } from "encore.dev/service";

// The site service: the front end's pages, and the docs' table of contents.
export default new Service("site");
