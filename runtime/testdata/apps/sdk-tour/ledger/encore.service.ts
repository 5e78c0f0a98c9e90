import { Service } from "encore.dev/service";

// The ledger applies each account's entries in the order they were made: an ordered topic.
export default new Service("ledger");
