import { Service } from "encore.dev/service";
import { startLinksService } from "./startup/start";

// Links by their owners: shortening, listing, changing and deleting them (and storing the
// rows of an import, pages of an export: the transfers service reads the files), moderation's
// side of them, and the url-shortened events and QR images they make. The url service
// redirects them and counts their clicks.
export default new Service("links");

// Encore.ts has no start-up hook: a service's own files run once when it starts, and
// this is where its background work begins (links/startup/start.ts).
startLinksService();
