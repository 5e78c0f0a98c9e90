import { useEffect, useRef, useState } from "preact/hooks";
import { Nav } from "./Nav";
import { useIsAdmin } from "./admin";
import { AdminPage } from "./pages/AdminPage";
import { KeysPage } from "./pages/KeysPage";
import { LinksPage } from "./pages/LinksPage";
import { LoginPage } from "./pages/LoginPage";
import { ReportPage } from "./pages/ReportPage";
import { SessionsPage } from "./pages/SessionsPage";
import { ShortenPage } from "./pages/ShortenPage";
import { InvitePage } from "./pages/InvitePage";
import { ForgotPasswordPage } from "./pages/ForgotPasswordPage";
import { ResetPasswordPage } from "./pages/ResetPasswordPage";
import { VerifyEmailPage } from "./pages/VerifyEmailPage";
import { SignupPage } from "./pages/SignupPage";
import { StatsPage } from "./pages/StatsPage";
import { TagStatsPage } from "./pages/TagStatsPage";
import { TransfersPage } from "./pages/TransfersPage";
import { WorkspacePage } from "./pages/WorkspacePage";
import { WebhooksPage } from "./pages/WebhooksPage";
import { DomainsPage } from "./pages/DomainsPage";
import { DomainStatsPage } from "./pages/DomainStatsPage";
import { WorkspacesPage } from "./pages/WorkspacesPage";
import { href, useRoute, type Route } from "./router";
import { useSession } from "./session";

const titles: Record<Route["page"], string> = {
  shorten: "Shorten a link",
  stats: "Link stats",
  login: "Log in",
  signup: "Sign up",
  links: "My links",
  keys: "API keys",
  admin: "Admin",
  report: "Report a link",
  tag: "Tag clicks",
  sessions: "Sessions",
  workspaces: "Workspaces",
  workspace: "Workspace",
  webhooks: "Webhooks",
  domains: "Domains",
  domain: "Domain clicks",
  invite: "Join a workspace",
  transfers: "Import and export",
  forgot: "Forgot your password?",
  reset: "Choose a new password",
  verify: "Confirm your email",
  missing: "Page not found",
};

export function App() {
  const route = useRoute();
  const session = useSession();
  const admin = useIsAdmin(session);
  const [justSignedUp, setJustSignedUp] = useState<string | null>(null);
  const [verificationMailed, setVerificationMailed] = useState(false);
  const main = useRef<HTMLElement>(null);
  const firstRender = useRef(true);

  // A new page announces itself: focus goes to its heading, as a page load would start at the top.
  useEffect(() => {
    document.title = `${titles[route.page]} · Short links`;
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    main.current?.querySelector<HTMLElement>("h1")?.focus();
  }, [route]);

  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), main.current?.querySelector<HTMLElement>("h1")?.focus())}>
        Skip to content
      </a>
      <header>
        <Nav route={route} session={session} admin={admin} />
      </header>
      <main id="main" ref={main}>
        {route.page === "shorten" && <ShortenPage />}
        {route.page === "stats" && <StatsPage code={route.code} />}
        {route.page === "login" && <LoginPage justSignedUp={justSignedUp} verificationMailed={verificationMailed} then={route.then} />}
        {route.page === "signup" && <SignupPage onSignedUp={(email, mailed) => (setJustSignedUp(email), setVerificationMailed(mailed))} then={route.then} />}
        {route.page === "links" && (session ? <LinksPage /> : <SignedOut title="My links" what="see the links you made" />)}
        {route.page === "keys" && (session ? <KeysPage /> : <SignedOut title="API keys" what="make keys for your programs" />)}
        {route.page === "admin" &&
          (!session ? (
            <SignedOut title="Admin" what="administer this site" />
          ) : admin ? (
            <AdminPage tab={route.tab} params={route.params} />
          ) : (
            <NotAdmin />
          ))}
        {route.page === "report" && <ReportPage key={route.code} code={route.code} />}
        {route.page === "tag" &&
          (session ? <TagStatsPage workspaceId={route.workspaceId} tagId={route.tagId} /> : <SignedOut title="Tag clicks" what="see your tags' clicks" />)}
        {route.page === "sessions" && (session ? <SessionsPage /> : <SignedOut title="Sessions" what="see where you are signed in" />)}
        {route.page === "workspaces" && (session ? <WorkspacesPage /> : <SignedOut title="Workspaces" what="share links with a team" then="/workspaces" />)}
        {route.page === "domains" &&
          (session ? <DomainsPage workspaceId={route.workspaceId} /> : <SignedOut title="Domains" what="see this workspace's domains" then={`/workspaces/${route.workspaceId}/domains`} />)}
        {route.page === "domain" &&
          (session ? (
            <DomainStatsPage workspaceId={route.workspaceId} host={route.host} />
          ) : (
            <SignedOut title="Domain clicks" what="see this domain's clicks" then={`/workspaces/${route.workspaceId}/domains/${route.host}`} />
          ))}
        {route.page === "webhooks" &&
          (session ? <WebhooksPage workspaceId={route.workspaceId} /> : <SignedOut title="Webhooks" what="see this workspace's webhooks" then={`/workspaces/${route.workspaceId}/webhooks`} />)}
        {route.page === "workspace" && (session ? <WorkspacePage id={route.id} /> : <SignedOut title="Workspace" what="see this workspace" then={`/workspaces/${route.id}`} />)}
        {route.page === "transfers" && (session ? <TransfersPage /> : <SignedOut title="Import and export" what="import and export links" then="/transfers" />)}
        {route.page === "invite" && <InvitePage token={route.token} />}
        {route.page === "forgot" && <ForgotPasswordPage />}
        {route.page === "verify" && <VerifyEmailPage key={route.token} token={route.token} />}
        {route.page === "reset" && <ResetPasswordPage key={route.token} token={route.token} />}
        {route.page === "missing" && <Missing />}
      </main>
      <footer>
        <p>
          Short links by an <a href="https://encore.dev">Encore.ts</a> app. Anyone may shorten; sign in to keep a list of your links.
        </p>
      </footer>
    </>
  );
}

/** `then`: the page's own path, to come back to once signed in. */
function SignedOut({ title, what, then }: { title: string; what: string; then?: string }) {
  return (
    <>
      <h1 tabIndex={-1}>{title}</h1>
      <p>
        <a href={href.loginThen(then)}>Log in</a> to {what}, or <a href={href.signupThen(then)}>sign up</a>.
      </p>
    </>
  );
}

function NotAdmin() {
  return (
    <>
      <h1 tabIndex={-1}>Admin</h1>
      <p>Only the site's administrators may see this page.</p>
    </>
  );
}

function Missing() {
  return (
    <>
      <h1 tabIndex={-1}>Page not found</h1>
      <p>
        Nothing here. <a href={href.shorten}>Shorten a link</a>.
      </p>
    </>
  );
}
