import { Service } from "encore.dev/service";

// A service nested inside another: its files belong to it, not to billing.
export default new Service("invoices");
