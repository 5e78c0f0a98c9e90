import { useEffect, useState } from "preact/hooks";
import { href, navigate, type Route } from "./router";
import { logOut as endSession, type Session } from "./session";

/**
 * The site's navigation; the current page's link carries aria-current. On a narrow screen
 * the entries fold behind a Menu button (styles.css), so that more of them (Workspaces,
 * and pages to come) cost the page no height until asked for; wide, they sit in a row.
 */
export function Nav({ route, session, admin }: { route: Route; session: Session | null; admin: boolean }) {
  const [open, setOpen] = useState(false);
  // Following a link closes the menu: the new page starts uncovered.
  useEffect(() => setOpen(false), [route]);
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
    <nav aria-label="Main" class={open ? "open" : undefined}>
      <a class="brand" href={href.shorten}>
        Short links
      </a>
      <button type="button" class="menu-button" aria-expanded={open} aria-controls="nav-entries" onClick={() => setOpen(!open)}>
        Menu
      </button>
      <ul id="nav-entries">
        {link("shorten", href.shorten, "Shorten")}
        {session && link("links", href.links, "My links")}
        {session && link("workspaces", href.workspaces, "Workspaces")}
        {session && link("transfers", href.transfers, "Import/Export")}
        {session && link("keys", href.keys, "API keys")}
        {session && link("sessions", href.sessions, "Sessions")}
        {session && admin && link("admin", href.admin, "Admin")}
        {!session && link("login", href.login, "Log in")}
        {!session && link("signup", href.signup, "Sign up")}
        {session && (
          <li class="account">
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
