import { Service } from "encore.dev/service";

// Login (JWTs) and the gateway's auth handler that checks them.
export default new Service("auth");
