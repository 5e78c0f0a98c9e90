/**
 * The longest password a link may have: the links service refuses a longer one when a link
 * is made or changed, and the url service counts a longer guess as wrong without hashing it.
 */
export const maxPasswordLength = 128;
