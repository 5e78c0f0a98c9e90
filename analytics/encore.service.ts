import { Service } from "encore.dev/service";

// Counts events from the other services: short URLs created per day, and the daily report.
export default new Service("analytics");
