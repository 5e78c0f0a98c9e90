import { Service } from "encore.dev/service";

// The API the front end calls.
export default new Service("greeting");
