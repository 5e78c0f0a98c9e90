// encore.dev/config: secrets come from environment variables, or from
// .secrets.local.json during development.
import { lookupSecret } from "../../internal/config/secrets.ts";

export interface Secret<Name extends string> {
  (): string;
  readonly name: Name;
}

export type AnySecret = Secret<string>;

type StringLiteral<T> = T extends string ? (string extends T ? never : T) : never;

/**
 * Declares a secret. Reading it returns the value, or throws when it is not set.
 * @example
 * const jwtSecret = secret("JWTSecret");
 * sign(payload, jwtSecret());
 */
export function secret<Name extends string>(name: StringLiteral<Name>): Secret<Name> {
  const read = () => {
    const value = lookupSecret(name);
    if (value === undefined) throw new Error(`secret ${name} is not set: set the ${name} environment variable`);
    return value;
  };
  // The value never shows up in logs or string interpolation.
  read.toString = () => `Secret<${name}>(${lookupSecret(name) === undefined ? "not set" : "*********"})`;
  Object.defineProperty(read, "name", { value: name });
  return read as unknown as Secret<Name>;
}
