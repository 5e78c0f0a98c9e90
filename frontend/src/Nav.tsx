import { href, navigate, type Route } from "./router";
import { logOut as endSession, type Session } from "./session";

/** The site's navigation; the current page's link carries aria-current. */
export function Nav({ route, session, admin }: { route: Route; session: Session | null; admin: boolean }) {
  const link = (page: Route["page"], to: string, label: string) => (
    <li>
      <a href={to} aria-current={route.page === page ? "page" : undefined}>
        {label}
      </a>
    </li>
  );
  const logOut = async () => {
    await endSession();
    navigate(href.shorten);
  };
  return (
    <nav aria-label="Main">
      <a class="brand" href={href.shorten}>
        Short links
      </a>
      <ul>
        {link("shorten", href.shorten, "Shorten")}
        {session && link("links", href.links, "My links")}
        {session && link("keys", href.keys, "API keys")}
        {session && link("sessions", href.sessions, "Sessions")}
        {session && admin && link("admin", href.admin, "Admin")}
        {!session && link("login", href.login, "Log in")}
        {!session && link("signup", href.signup, "Sign up")}
        {session && (
          <li>
            <span class="who">{session.email}</span>{" "}
            <button type="button" class="link-button" onClick={() => void logOut()}>
              Log out
            </button>
          </li>
        )}
      </ul>
    </nav>
  );
}
