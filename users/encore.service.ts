import { Service } from "encore.dev/service";

// Accounts: sign-up, the caller's own account (get, replace, delete), a paged list, the
// caller's API keys, and the checks the auth service asks for (credentials, an account in
// force, a key) and the disabling the moderation service asks for. drizzle-orm, schema in schema.ts.
export default new Service("users");
