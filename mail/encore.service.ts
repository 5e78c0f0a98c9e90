import { Service } from "encore.dev/service";

// Mail: the one place the app sends email from. Other services publish an `OutgoingMail`
// to the outgoing-mail topic (events.ts) and go on; this service delivers it through
// the SMTP server of SMTP_URL, retried by the topic when the server is away. Without
// SMTP_URL the app works all the same and logs where each mail would have gone.
export default new Service("mail");
