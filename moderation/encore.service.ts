import { Service } from "encore.dev/service";

// Moderation for a public instance: administrators (ADMIN_EMAILS) disable links, ban
// target hosts and disable accounts; every action is recorded with who did it and when.
export default new Service("moderation");
