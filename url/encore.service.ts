import { Service } from "encore.dev/service";
import { startUrlService } from "./startup/start";

// Short links answered: redirects, the password form, click counting (each click's analytics
// row written with it), stats, and the cleanup of stale links. The links service makes and
// manages them; the analytics service reads their click analytics.
export default new Service("url");

// Encore.ts has no start-up hook: a service's own files run once when it starts, and
// this is where its background work begins (url/startup/start.ts).
startUrlService();
