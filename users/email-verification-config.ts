// Whether this instance requires every account to prove its email before logging in; read once at start.
import { onOffSetting } from "../limits/limiter/env";

/** Off by default: a self-hosted instance may have no mail server (SMTP_URL) to send the links. */
export const emailVerificationRequired: boolean = onOffSetting(process.env, "EMAIL_VERIFICATION", false);
