import type { EndpointMeta } from "../meta/types.ts";
import type { Middleware, MiddlewareOptions } from "./middleware.ts";

type Target = NonNullable<MiddlewareOptions["target"]>;

const flags = ["expose", "auth", "isRaw", "isStream"] as const;

/**
 * A service's `middlewares`, checked once at boot. The parser cannot see what the list
 * holds (it may be built by any code), so what the runtime could not apply as declared
 * stops the server here, naming the service: a middleware that silently ran nowhere, or
 * everywhere, would undo what it guards.
 */
export function checkedMiddlewares(service: string, file: string, declared: unknown): readonly Middleware[] {
  if (declared === undefined) return [];
  const where = `the middlewares of service "${service}" (${file})`;
  if (!Array.isArray(declared)) throw new Error(`${where} must be an array of middleware functions`);
  declared.forEach((m: unknown, i) => {
    if (typeof m !== "function") throw new Error(`${where}: entry ${i} is not a function; declare it with middleware() from encore.dev/api`);
    const problem = targetProblem((m as Middleware).options);
    if (problem !== null) throw new Error(`${where}: entry ${i} ${problem}`);
  });
  return declared as Middleware[];
}

function targetProblem(options: MiddlewareOptions | undefined): string | null {
  if (options === undefined) return null;
  if (typeof options !== "object" || options === null) return "has options that are not an object";
  const target: unknown = options.target;
  if (target === undefined) return null;
  if (typeof target !== "object" || target === null) return "has a target that is not an object";
  for (const [key, value] of Object.entries(target)) {
    if (key === "tags") {
      if (value !== undefined && !(Array.isArray(value) && value.every((t) => typeof t === "string"))) {
        return "has target.tags that is not an array of strings";
      }
    } else if (!(flags as readonly string[]).includes(key)) {
      return `has an unknown target option "${key}" (known: ${[...flags, "tags"].join(", ")})`;
    } else if (value !== undefined && typeof value !== "boolean") {
      return `has target.${key} that is not true or false`;
    }
  }
  return null;
}

/**
 * The middlewares that run for `endpoint`, in the service's order: those whose every set
 * target option matches it (tags: any one in common). Decided at boot, as in Encore, so
 * a request pays nothing for the middlewares that do not apply to it.
 */
export function middlewaresFor(endpoint: EndpointMeta, declared: readonly Middleware[]): readonly Middleware[] {
  return declared.filter((m) => targets(m.options?.target, endpoint));
}

function targets(target: Target | undefined, e: EndpointMeta): boolean {
  if (target === undefined) return true;
  const facts = { expose: e.expose, auth: e.auth, isRaw: e.kind === "raw", isStream: false };
  for (const flag of flags) {
    const wanted = target[flag];
    if (wanted !== undefined && wanted !== facts[flag]) return false;
  }
  return target.tags === undefined || target.tags.some((tag) => e.tags.includes(tag));
}
