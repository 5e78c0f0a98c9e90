import { api } from "encore.dev/api";
import { userNotFound } from "./accounts/own-record";
import { userStore } from "./accounts/user-store";

export interface SetAccountDisabledRequest {
  id: string;
  /** true disables the account, false enables it again. */
  disabled: boolean;
}

export interface SetAccountDisabledResponse {
  id: string;
  email: string;
  /** When the account was disabled; left out when it is enabled. */
  disabledAt?: Date;
  /** Whether this call changed the account's state (false: it already was so). */
  changed: boolean;
}

/**
 * Disables or enables an account, for the moderation service. Internal. A disabled
 * account cannot log in (403 permission_denied "account disabled", once its password is
 * right), and its login tokens and API keys are refused on every instance from the next
 * request: the auth handler asks this service on each one. Unknown id: 404 not_found.
 */
export const setAccountDisabled = api(
  { expose: false, method: "POST", path: "/internal/users/:id/disabled" },
  async ({ id, disabled }: SetAccountDisabledRequest): Promise<SetAccountDisabledResponse> => {
    const normalized = id.toLowerCase();
    const result = await userStore.setDisabled(normalized, disabled);
    if (!result) throw userNotFound();
    const { email, disabledAt, changed } = result;
    return { id: normalized, email, ...(disabledAt && { disabledAt }), changed };
  },
);
