import { Service } from "encore.dev/service";

// The web front end (frontend/, built by npm run build:web), served at / by static.ts.
export default new Service("web");
