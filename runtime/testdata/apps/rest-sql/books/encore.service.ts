import { Service } from "encore.dev/service";

// The books service: a REST resource kept in its own PostgreSQL database.
export default new Service("books");
