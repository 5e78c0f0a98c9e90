// encore.dev/config: secrets come from environment variables, or from
// .secrets.local.json during development.
import { config } from "../../internal/config/mod.ts";
import { lookupSecret } from "../../internal/config/secrets.ts";

export interface Secret<Name extends string> {
  (): string;
  readonly name: Name;
}

export type AnySecret = Secret<string>;

type StringLiteral<T> = T extends string ? (string extends T ? never : T) : never;

/**
 * Declares a secret. Reading it returns the value. Unset, it reads as "" in development
 * and tests, as under `encore run` and `encore test`, so an app that reads a secret while
 * loading still starts; in production reading it throws.
 * @example
 * const jwtSecret = secret("JWTSecret");
 * sign(payload, jwtSecret());
 */
export function secret<Name extends string>(name: StringLiteral<Name>): Secret<Name> {
  const read = () => {
    const value = lookupSecret(name);
    if (value !== undefined) return value;
    if (config().environmentType !== "production") return "";
    throw new Error(`secret ${name} is not set: set the ${name} environment variable`);
  };
  // The value never shows up in logs or string interpolation.
  read.toString = () => `Secret<${name}>(${lookupSecret(name) === undefined ? "not set" : "*********"})`;
  Object.defineProperty(read, "name", { value: name });
  return read as unknown as Secret<Name>;
}
