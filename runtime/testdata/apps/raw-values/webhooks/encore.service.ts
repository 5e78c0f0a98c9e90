import { Service } from "encore.dev/service";
import { numberDeliveries } from "./deliveries";

// Receives webhooks from other services and keeps what they deliver.
export default new Service("webhooks", { middlewares: [numberDeliveries] });
