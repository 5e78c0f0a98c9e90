import { Service } from "encore.dev/service";

// Counts events from the other services (SPEC 2.5, 6.2).
export default new Service("analytics");
