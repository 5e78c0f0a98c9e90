import { Service } from "encore.dev/service";

// Form submissions: each form's answers are checked against the form's JSON schema.
export default new Service("forms");
