import { Service } from "encore.dev/service";

// The users service: accounts kept in its own PostgreSQL database.
export default new Service("users");
