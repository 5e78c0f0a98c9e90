import { Service } from "encore.dev/service";

// The tasks service: a to-do list kept with drizzle-orm.
export default new Service("tasks");
