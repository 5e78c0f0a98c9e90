// A signed-in page without going through the login form (frontend.browser.test.ts tests
// that form): an account made through the API, its session put where the login page keeps it.
import type { Page } from "playwright-core";
import { expect } from "vitest";

export interface Account {
  readonly email: string;
  readonly userID: string;
  /** Its login token, for API calls of the test's own. */
  readonly token: string;
  readonly expiresAt: string;
}

const password = "correct horse battery";
const json = { "content-type": "application/json" };

/** A new account on the app at `appUrl`, signed up and logged in. */
export async function newAccount(appUrl: string, email: string, name: string): Promise<Account> {
  const made = await fetch(`${appUrl}/users`, { method: "POST", headers: json, body: JSON.stringify({ email, name, password }) });
  expect(made.status).toBe(200);
  const { id: userID } = (await made.json()) as { id: string };
  const login = await fetch(`${appUrl}/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ email, password }) });
  expect(login.status).toBe(200);
  const { token, expiresAt } = (await login.json()) as { token: string; expiresAt: string };
  return { email, userID, token, expiresAt };
}

/** Opens `path` of the app (such as "/#/links") in `page`, signed in as `who`. */
export async function openSignedIn(page: Page, appUrl: string, who: Account, path: string): Promise<void> {
  await page.goto(appUrl);
  const session = JSON.stringify({ token: who.token, email: who.email, expiresAt: who.expiresAt });
  await page.evaluate(`localStorage.setItem("url-shortener.session", ${JSON.stringify(session)})`);
  await page.goto(`${appUrl}${path}`);
  await page.reload(); // the page reads its session when it starts
}
