import { Service } from "encore.dev/service";

// Transfers: links moved in and out of a workspace. Imports read a CSV or another
// shortener's export as a background job (the file in a bucket, the work driven by a topic,
// resumable from its recorded progress) and hand the links service the rows to store, so
// one set of rules decides what a link may be; exports stream a workspace's links and
// their analytics page by page.
export default new Service("transfers");
