import { Service } from "encore.dev/service";

// Login (JWTs) and the gateway's auth handler that checks them and API keys.
export default new Service("auth");
