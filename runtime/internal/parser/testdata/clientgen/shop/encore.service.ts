import { Service } from "encore.dev/service";

// Shop sells things.
// It is a fixture for the client generator.
export default new Service("shop");
