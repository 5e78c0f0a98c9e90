import { Service } from "encore.dev/service";

// What the app's links add up to: short URLs created per day (from the url-shortened events),
// the daily report, and each link's click analytics (GET /:code/analytics, GET /me/clicks), read
// from the url database where the url service writes each click's hourly row.
export default new Service("analytics");
