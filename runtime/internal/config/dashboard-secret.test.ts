import { expect, test } from "vitest";
import { dashboardSecretVariable, newDashboardSecret, takeDashboardSecret } from "./dashboard-secret.ts";

test("a new secret is 32 random bytes as base64url, a different one each time", () => {
  const [a, b] = [newDashboardSecret(), newDashboardSecret()];
  expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(a).not.toBe(b);
});

test("the secret run hands over is taken out of the environment, so the app's own child processes do not inherit it", () => {
  const secret = newDashboardSecret();
  const env: NodeJS.ProcessEnv = { [dashboardSecretVariable]: secret, PATH: "/bin" };
  expect(takeDashboardSecret(env)).toBe(secret);
  expect(env).toEqual({ PATH: "/bin" });
  expect(takeDashboardSecret(env)).toBeNull();
});

test("a secret too short to be run's stops start-up, naming the variable", () => {
  expect(() => takeDashboardSecret({ [dashboardSecretVariable]: "guessable" })).toThrow(
    `invalid configuration: ${dashboardSecretVariable} must be at least 32 characters`,
  );
});
