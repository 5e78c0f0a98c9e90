import { liftDisabling, moderating } from "./disabling";

/**
 * Disables the links of an account an administrator disabled (the users service refuses
 * its logins, tokens and keys), and records it so that ending another cause of a link
 * of it leaves the link disabled. Resolves with how many links it disabled.
 */
export function disableAccountLinks(userID: string): Promise<number> {
  return moderating(async (tx) => {
    await tx.exec`INSERT INTO disabled_accounts (user_id) VALUES (${userID}) ON CONFLICT DO NOTHING`;
    const disabled = await tx.queryAll`
      UPDATE urls SET disabled_at = now(), disabled_reason = 'account'
      WHERE created_by = ${userID} AND disabled_at IS NULL AND deleted_at IS NULL
      RETURNING 1`;
    return disabled.length;
  });
}

/** Enables the links disabled with an account, unless another cause holds; resolves with how many redirect again. */
export function enableAccountLinks(userID: string): Promise<number> {
  return moderating(async (tx) => {
    await tx.exec`DELETE FROM disabled_accounts WHERE user_id = ${userID}`;
    return liftDisabling(tx, "account", { userID });
  });
}
