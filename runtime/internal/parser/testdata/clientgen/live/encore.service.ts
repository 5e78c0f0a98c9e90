import { Service } from "encore.dev/service";

// Live streams over WebSocket: the client tests open them with the generated client.
export default new Service("live");
