import { Service } from "encore.dev/service";

// The profile service: endpoints that answer differently depending on who calls.
export default new Service("profile");
