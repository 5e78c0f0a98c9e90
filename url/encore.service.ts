import { Service } from "encore.dev/service";
import { startUrlService } from "./startup/start";

// Short links: 6-character codes, their redirects, click counting and stats.
export default new Service("url");

// Encore.ts has no start-up hook: a service's own files run once when it starts, and
// this is where its background work begins (url/startup/start.ts).
startUrlService();
