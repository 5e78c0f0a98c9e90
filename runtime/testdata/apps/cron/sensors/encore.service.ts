import { Service } from "encore.dev/service";

// The sensors service records readings and rolls them up on a schedule.
export default new Service("sensors");
