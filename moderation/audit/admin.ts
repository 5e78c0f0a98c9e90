import { APIError } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { requireLogin } from "../../access/scopes";

/** Who is acting: an administrator. */
export interface Admin {
  readonly userID: string;
  readonly email: string;
}

/**
 * The signed-in caller if it is an administrator (its email in ADMIN_EMAILS, which the
 * auth handler reads), signed in with a login token; anyone else, an administrator's API
 * key included: 403 permission_denied. For `auth: true` endpoints, which the runtime calls
 * only with a signed-in user.
 */
export function requireAdmin(): Admin {
  requireLogin("act as an administrator");
  const user = getAuthData()!;
  if (!user.admin) throw APIError.permissionDenied("only an administrator may do this");
  return { userID: user.userID, email: user.email };
}
