import { Service } from "encore.dev/service";

// The user service: accounts kept in its own PostgreSQL database.
export default new Service("user");
