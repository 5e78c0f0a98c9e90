import { Service as EncoreService } from "encore.dev/service";

export default new EncoreService("other");
