import { Service } from "encore.dev/service";

// The web front end: the built pages in dist/, served from the root of the site.
export default new Service("frontend");
