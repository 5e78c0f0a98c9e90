import { Service } from "encore.dev/service";

// Login (JWTs) and the gateway's auth handler that checks them (SPEC 5).
export default new Service("auth");
