import { Service } from "encore.dev/service";

// Accounts: sign-up, the caller's own account (get, replace, delete), a paged list, and the
// credential checks the auth service asks for. drizzle-orm, schema in schema.ts.
export default new Service("users");
