import { Service } from "encore.dev/service";

// Preferences kept in the visitor's own cookies: nothing stored on the server.
export default new Service("prefs");
