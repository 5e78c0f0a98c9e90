import { Service } from "encore.dev/service";

// The book service: a small in-memory shelf that the GraphQL service reads and adds to.
export default new Service("book");
