import { api } from "encore.dev/api";
import { answerPasswordForm } from "./link-answers/unlock";

/**
 * POST /:code: the form a browser gets for a password link (GET /:code answers 401 with
 * it) posts the password here, as application/x-www-form-urlencoded (at most 4 KiB).
 * Right: 303 to the target, the click counted. Wrong: 401 and the form again. Wrong
 * guesses are limited per client address and code (limits/link-passwords.ts): past the
 * limit, 429 with Retry-After. A raw endpoint: a typed one takes only JSON and cannot
 * answer a redirect or a page.
 *
 * Publishes nothing; the click is counted as GET /:code counts it.
 */
export const unlock = api.raw({ expose: true, method: "POST", path: "/:code" }, answerPasswordForm);
