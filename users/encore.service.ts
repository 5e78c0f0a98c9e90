import { Service } from "encore.dev/service";

// Accounts: sign-up, and the credential checks the auth service asks for (SPEC 4.3, 5).
export default new Service("users");
