// encore.dev/auth: inert, like every declaration: authHandler() returns the function, and
// the runtime finds it (and the Gateway that attaches it) in the generated metadata.

/** A function from the auth parameters to the caller's auth data, or null for no caller. */
export type AuthHandler<Params extends object, AuthData extends { userID: string }> = ((
  params: Params,
) => Promise<AuthData | null>) &
  AuthHandlerBrand;

export type AuthHandlerBrand = { readonly __authHandlerBrand: unique symbol };

/**
 * Declares the app's auth handler. It runs whenever a request carries one of its
 * parameters; `APIError.unauthenticated` (or null) leaves the request anonymous.
 * @example
 * interface AuthParams { authorization: Header<"Authorization"> }
 * export const auth = authHandler<AuthParams, { userID: string }>(async ({ authorization }) => {
 *   const userID = await verify(authorization);
 *   if (!userID) throw APIError.unauthenticated("invalid token");
 *   return { userID };
 * });
 * export const gateway = new Gateway({ authHandler: auth });
 */
export function authHandler<Params extends object, AuthData extends { userID: string }>(
  fn: (params: Params) => Promise<AuthData | null>,
): AuthHandler<Params, AuthData> {
  return fn as AuthHandler<Params, AuthData>;
}
