import { Service } from "encore.dev/service";

// The auth service holds the gateway's auth handler: who a bearer token belongs to.
export default new Service("auth");
