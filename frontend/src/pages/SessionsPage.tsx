import { useEffect, useRef, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import type { users } from "../client.gen";
import { Alert } from "../components/Alert";
import { ConfirmButton } from "../components/ConfirmButton";
import { formatTime } from "../format";
import { href, navigate } from "../router";
import { signOut } from "../session";

/** Where the account is signed in: each browser's session, ended one by one or all at once. */
export function SessionsPage() {
  const [sessions, setSessions] = useState<users.ListedSession[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    client.users.listSessions().then(
      (res) => setSessions(res.sessions),
      (err: unknown) => setError(errorMessage(err)),
    );
  }, []);

  const ended = (session: users.ListedSession) => {
    if (session.current) {
      // This browser's own: its token no longer works, so the page is signed out as well.
      signOut();
      navigate(href.login);
      return;
    }
    setSessions((shown) => shown?.filter((s) => s.id !== session.id) ?? null);
    setNotice(`Signed out ${browserName(session.userAgent)}.`);
    heading.current?.focus();
  };

  return (
    <>
      <h1 tabIndex={-1} ref={heading}>
        Sessions
      </h1>
      <p>
        Each browser where you logged in with your password. A session left unused ends by itself, every one ends after a few months, and
        all of them when your password changes. API keys are not sessions: they keep working until you revoke them on{" "}
        <a href={href.keys}>API keys</a>.
      </p>
      <p role="status" class={notice ? "notice" : "status-line"}>
        {notice}
      </p>
      {error && <Alert>{error}</Alert>}
      {sessions && (
        <ul class="links sessions" aria-label="Your sessions">
          {sessions.map((session) => (
            <SessionItem key={session.id} session={session} onEnded={ended} />
          ))}
        </ul>
      )}
      <section class="everywhere" aria-labelledby="everywhere-heading">
        <h2 id="everywhere-heading">Sign out everywhere</h2>
        <p>Ends every session, this one too, at once: a lost phone or a shared computer is signed out. You log in again here.</p>
        <div class="actions">
          <ConfirmButton
            label="Sign out everywhere"
            name="Sign out everywhere"
            question="Sign out of every browser, this one included?"
            confirmLabel="Sign out everywhere"
            onConfirm={async () => {
              await client.users.signOutEverywhere();
              signOut();
              navigate(href.login);
            }}
          />
        </div>
      </section>
    </>
  );
}

function SessionItem({ session, onEnded }: { session: users.ListedSession; onEnded: (s: users.ListedSession) => void }) {
  const name = browserName(session.userAgent);
  return (
    <li>
      <span class="link-head">
        <strong>{name}</strong>
        {session.current && <span class="status status-active">This browser</span>}
      </span>
      <span class="meta">
        Signed in <time dateTime={session.createdAt}>{formatTime(session.createdAt)}</time> · last used{" "}
        <time dateTime={session.lastUsedAt}>{formatTime(session.lastUsedAt)}</time> · ends unless used by{" "}
        <time dateTime={session.expiresAt}>{formatTime(session.expiresAt)}</time>
      </span>
      <div class="actions">
        <ConfirmButton
          label="Sign out"
          name={`Sign out ${name}${session.current ? " (this browser)" : ""}`}
          question={session.current ? "Sign out of this browser?" : `Sign out ${name}? It must log in again with the password.`}
          confirmLabel="Sign out"
          onConfirm={async () => {
            await client.users.revokeSession(session.id);
            onEnded(session);
          }}
        />
      </div>
    </li>
  );
}

/** "Firefox on Android" from a User-Agent, as far as it tells; the text itself when it tells nothing known. */
export function browserName(userAgent: string | undefined): string {
  if (!userAgent) return "Unknown browser";
  const browser = [
    ["Edg/", "Edge"],
    ["OPR/", "Opera"],
    ["Firefox/", "Firefox"],
    ["Chrome/", "Chrome"],
    ["Chromium/", "Chromium"],
    ["Safari/", "Safari"],
  ].find(([mark]) => userAgent.includes(mark!))?.[1];
  const system = [
    ["Android", "Android"],
    ["iPhone", "iPhone"],
    ["iPad", "iPad"],
    ["Windows", "Windows"],
    ["Mac OS X", "macOS"],
    ["CrOS", "ChromeOS"],
    ["Linux", "Linux"],
  ].find(([mark]) => userAgent.includes(mark!))?.[1];
  if (!browser) return userAgent.length > 60 ? `${userAgent.slice(0, 60)}…` : userAgent;
  return system ? `${browser} on ${system}` : browser;
}
